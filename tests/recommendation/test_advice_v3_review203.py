"""Regression tests for the defects reviews 203-204 found (issue 28, advice v3), each against the vendor page cited."""

from __future__ import annotations

from recommendation_builders import answer_for as answer
from recommendation_builders import considered


def test_a_qlora_recipe_races_no_bf16_trainer_on_throughput():
    # Review 204 p07: "QLoRA fine-tuning on Intel Gaudi ... run in bf16 (its recipe defaults to int4)" raced a bf16 LoRA
    # trainer: QLoRA's NF4 base buys memory (https://huggingface.co/docs/peft/main/en/developer_guides/quantization),
    # and an 8B LoRA fits one 128 GB Gaudi 3 in bf16
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="both",
        training="lora",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"dynamic_shapes": True, "quantization": "fp8", "quantization_method": "ptq", "devices": 1},
    )
    assert not [s.id for s in result.switch_conditions if "qlora" in s.id]
    assert any(row.stack == "gaudi-qlora-bitsandbytes-peft" for row in result.stacks_considered)


def test_a_block_scaled_fp8_release_quotes_nvidias_block_scaled_gemm_timings():
    # Review 204 p01: Qwen3-235B-A22B-FP8 is fine-grained FP8 with 128-wide blocks
    # (https://huggingface.co/Qwen/Qwen3-235B-A22B-FP8), yet the record quoted NVIDIA's per-tensor FP8 GEMM timings;
    # aiconfigurator's tables time block-scaled FP8 apart (fp8_block)
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        model="Qwen/Qwen3-235B-A22B",
        needs={"quantization": "fp8", "long_context": True, "devices": 8},
    )
    names = {figure.name for figure in result.reference}
    assert "fp8_block_over_bf16_gemm" in names and "fp8_over_bf16_gemm" not in names
    block = next(figure for figure in result.reference if figure.name == "fp8_block_over_bf16_gemm")
    assert block.figure.startswith("block-scaled fp8 (fp8_block) GEMM is ")
    # review 206 p01: the GEMM part is the engine's block-scaled kernel, not cuBLAS's per-tensor FP8 GEMM
    # (https://github.com/NVIDIA/TensorRT-LLM/blob/2672c80c97c4a8ef6274bac50f096850bb4f3356/tensorrt_llm/_torch/modules/linear.py)
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    assert gemm.option == "tensorrt-llm" and gemm.settings["dtype"] == "fp8"
    assert any("fp8_block_scaling_gemm" in r.text for r in gemm.rationale)
    assert not any(c.ref == "cublas.fp8" for r in gemm.rationale for c in r.cites)
    # a model with no block-scaled release keeps the per-tensor figure
    dense = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        model="meta-llama/Llama-3.1-70B-Instruct",
        needs={"quantization": "fp8", "devices": 8},
    )
    assert "fp8_over_bf16_gemm" in {figure.name for figure in dense.reference}
    assert next(c for c in dense.tier(1).choices if c.concern == "gemm").option != "tensorrt-llm"


def test_an_8b_model_on_a_page_whose_launch_is_the_70b_ones_takes_no_layout_from_it():
    # Reviews 205 p07, 206 p07: vLLM Neuron's TP 16 is its 70B FP8 launch
    # (https://github.com/aws-neuron/aws-neuron-sdk/blob/43a89626d2aa0f9f649b581df8dfefe85b2b603d/vllm-neuron/docs/tutorials/tutorial-llama3-70b.md),
    # yet an 8B model on 16 Trn2 was sized as "4 replicas of 4"; 16 GB of bf16 weights fit one 96 GB chip
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"devices": 16},
    )
    serving = next(line.text for line in result.capacity if "KV cache" in line.text)
    assert "the serving page runs this model" not in serving
    assert "16 replicas of 1" in serving


def test_an_llm_served_with_static_shapes_asked_says_the_engine_batches_its_shapes():
    # Review 205 p07/p11: "Not needed: dynamic-shapes: shapes are static" for LLM serving, whose prompts and batches
    # always vary (continuous batching: https://docs.vllm.ai/en/latest/design/arch_overview.html)
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"dynamic_shapes": False, "devices": 1},
    )
    skipped = next(s for s in result.skipped_concerns if s.concern == "dynamic-shapes")
    assert "shapes are static" not in skipped.rationale[0].text
    assert "the LLM serving engine's to batch" in skipped.rationale[0].text
    # an image classifier keeps the plain reason
    cnn = answer(
        model_type="cnn",
        hardware="nvidia-gpu",
        device="l40s",
        workload="inference",
        model="microsoft/resnet-50",
        needs={"devices": 1},
    )
    static = next(s for s in cnn.skipped_concerns if s.concern == "dynamic-shapes")
    assert static.rationale[0].text == "shapes are static"


def test_a_weight_only_int8_release_runs_its_gemms_on_16_bit_activations():
    # Reviews 205 p11, 206 p11: "int8 GEMMs" beside Qwen's GPTQ-Int8 release, which is weight-only
    # (https://huggingface.co/Qwen/Qwen2.5-72B-Instruct-GPTQ-Int8)
    result = answer(
        model_type="dense-transformer",
        hardware="cambricon-mlu",
        device="mlu590",
        workload="inference",
        model="Qwen/Qwen2.5-72B-Instruct",
        needs={"quantization": "int8", "devices": 8},
    )
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    assert gemm.settings.get("weights") == "int8" and "dtype" not in gemm.settings
    assert any("16-bit activations on 8-bit weights" in r.text for r in gemm.rationale)


def test_a_long_context_qwen3_service_is_told_to_turn_yarn_on_and_what_it_costs():
    # Review 206 p01: a 128k-token plan for Qwen3-235B-A22B said nothing of YaRN, which its card requires past 32,768
    # tokens and warns against for short texts (https://huggingface.co/Qwen/Qwen3-235B-A22B)
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="inference",
        model="Qwen/Qwen3-235B-A22B",
        needs={"quantization": "fp8", "long_context": True, "devices": 8},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    said = " ".join(r.text for r in deployment.rationale)
    assert "runs 32,768 tokens natively and 131,072 with YaRN" in said and "short texts" in said
    short = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="inference",
        model="Qwen/Qwen3-235B-A22B",
        needs={"quantization": "fp8", "devices": 8},
    )
    assert "YaRN" not in " ".join(r.text for c in short.tier(1).choices for r in c.rationale)


def test_an_nvfp4_ask_of_a_model_without_a_release_is_quantized_first_not_served_as_another_models_release():
    # Reviews 205 p01, 207 p01: "deepseek-ai/DeepSeek-V3 in place of nvidia/DeepSeek-R1-0528-FP4-v2" served the FP8
    # release under an NVFP4 plan, "fitting the whole profile"; NVIDIA publishes NVFP4 checkpoints of DeepSeek-R1,
    # R1-0528, V3-0324 (https://huggingface.co/nvidia/DeepSeek-V3-0324-FP4) and V3.1, none of the original V3
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        model="deepseek-ai/DeepSeek-V3",
        needs={"quantization": "fp4", "long_context": True, "devices": 8},
    )
    # review 214 p01: Model Optimizer's DeepSeek example makes V3's NVFP4 checkpoint for TensorRT-LLM itself
    # (https://github.com/NVIDIA/Model-Optimizer/blob/10718622f916687b69f80890468542bf2cec4d70/examples/deepseek/README.md)
    assert considered(result, "nvidia-trtllm-deepseek-blackwell").chosen
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert quantization.option == "modelopt" and quantization.settings.get("method") == "ptq"
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert deployment.settings["model"].startswith("deepseek-ai/DeepSeek-V3 quantized to FP4 first")


def test_a_pages_nvfp4_checkpoint_with_a_version_suffix_is_read_as_pre_quantized():
    # nvidia/DeepSeek-R1-0528-FP4-v2 is an NVFP4 release (https://huggingface.co/nvidia/DeepSeek-R1-0528-FP4-v2): a
    # model put in its place in the command is quantized first
    from advisor.knowledge.loader import load_knowledge_base
    from advisor.recommendation.adapt import model_in_command

    stack = load_knowledge_base().stack("nvidia-trtllm-deepseek-blackwell")
    command = "trtllm-serve nvidia/DeepSeek-R1-0528-FP4-v2 --config x.yaml"
    swap = model_in_command(command, stack, "deepseek-ai/DeepSeek-V3")
    assert swap is not None and swap.startswith("deepseek-ai/DeepSeek-V3 quantized to FP4 first")


def test_an_fp8_kv_cache_gets_its_own_accuracy_gate_against_a_bf16_one():
    # Review 208 p03: the FP8 KV cache was turned on for DeepSeek-R1 MXFP4 on MI355X with no gate of its own, while
    # https://github.com/ROCm/aiter/issues/2656 reports GSM8K falling to 0.03 with fp8_e4m3 KV after a kernel change
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="inference",
        model="deepseek-ai/DeepSeek-R1-0528",
        needs={"quantization": "fp4", "long_context": True, "devices": 8},
    )
    gate = next(s for s in result.switch_conditions if s.id == "fp8-kv-accuracy-drop")
    assert gate.metric == "evidence.fp8_kv_accuracy_drop" and "bf16 KV cache" in gate.description
    # no FP8 KV cache, no gate: a bf16 job that keeps its KV cache in the model's dtype
    plain = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"devices": 1},
    )
    assert not any(s.id == "fp8-kv-accuracy-drop" for s in plain.switch_conditions)


def test_a_gaudi_lora_of_a_model_that_fits_takes_the_transformers_trainer_before_deepspeed_zero():
    # Reviews 206 p05, 208 p05: Intel's DeepSpeed page, the path for models that do not fit one HPU
    # (https://docs.habana.ai/en/latest/PyTorch/DeepSpeed/DeepSpeed_User_Guide.html), chosen for an 8B LoRA on a tie;
    # Transformers' Trainer detects the HPU itself (https://huggingface.co/docs/transformers/v5.10.2/perf_train_gaudi)
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="training",
        training="lora",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"devices": 8},
    )
    assert next(row for row in result.stacks_considered if row.chosen).stack == "gaudi-transformers-trainer-bf16"


def test_an_image_models_int8_on_a_cpu_is_gated_on_its_speed_against_the_float_model():
    # Review 207 p11: ONNX Runtime's dynamic INT8 ViT on Graviton4 had an accuracy gate and no speed one, while its own
    # watch line asks to time the INT8 model against the float one
    # (https://onnxruntime.ai/docs/performance/model-optimizations/quantization.html)
    result = answer(
        model_type="cnn",
        hardware="arm-cpu",
        device="graviton4",
        workload="inference",
        model="google/vit-base-patch16-224",
        needs={"quantization": "int8", "devices": 1},
    )
    speed = next(s for s in result.switch_conditions if s.id == "int8-no-speedup")
    assert speed.metric == "evidence.inference_throughput.int8_over_fp32"


def test_a_part_for_sme2_cores_is_left_out_on_a_phone_without_sme2():
    # Review 209 p11: KleidiAI's SME micro-kernels named for an I8MM-only phone; XNNPACK hands layers to KleidiAI's SME2
    # kernels only where the core reports SME2
    # (https://learn.arm.com/learning-paths/mobile-graphics-and-gaming/measure-kleidiai-kernel-performance-on-executorch/03-executorch-node-kai-kernel)
    phone = {
        "model_type": "cnn",
        "hardware": "arm-cpu",
        "workload": "inference",
        "model": "google/mobilenet_v2_1.0_224",
        "needs": {"quantization": "int8", "devices": 1, "in_app": True},
    }
    i8mm = answer(**phone, device="armv9-mobile-i8mm")
    said = " ".join(
        [r.text for c in i8mm.tier(1).choices for r in c.rationale]
        + [str(v) for c in i8mm.tier(1).choices for v in c.settings.values()]
        + [part.name for stack in i8mm.stacks for part in stack.parts]
        + [risk.text for stack in i8mm.stacks for risk in stack.risks]
    )
    assert "SME micro-kernels" not in said and "KleidiAI's SME kernels" not in said
    sme2 = answer(**phone, device="armv9-mobile-sme2")
    assert any("SME micro-kernels" in part.name for stack in sme2.stacks for part in stack.parts)


def test_a_part_limited_to_devices_names_devices_of_its_stack():
    import pytest

    from advisor.knowledge.loader import load_knowledge_base
    from advisor.knowledge.stacks import Stack

    stack = load_knowledge_base().stack("arm-executorch-xnnpack")
    document = stack.model_dump(mode="json", by_alias=True, exclude_none=True)
    document["components"][-2]["devices"] = ["graviton4"]
    with pytest.raises(ValueError, match="'graviton4' is not among applies_to.devices"):
        Stack.model_validate(document)


def test_a_classifier_that_trains_and_serves_with_no_model_named_serves_on_the_classifier_recipe():
    # Review 211 p14: a ResNet-50 fine-tune and service on 8 Tiangai 150 served on the YOLOv8 detector recipe once the
    # CNN recipes were marked scripts; both are DeepSparkInference scripts, not servers
    # (https://github.com/Deep-Spark/DeepSparkInference/blob/master/models/cv/classification/resnet50/igie/README.md)
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="both",
        training="fine-tuning",
        needs={"devices": 8},
    )
    serving = next(row for row in result.stacks_considered if row.chosen and row.workload == "inference")
    assert "yolov8" not in serving.stack
