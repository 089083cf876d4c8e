"""Reviews 89 and 90's defects, each pinned."""

from __future__ import annotations

import pytest
from recommendation_builders import answer_for as answer

from advisor.profile import ProfileError, parse_profile


def chosen_serving(result):
    return next(row for row in result.stacks_considered if row.chosen and row.workload == "inference")


@pytest.mark.parametrize(
    ("hardware", "device", "served", "weights_gb"),
    # 70B at 4.5 bits a weight (NVFP4: an E4M3 scale per 16 values) and 4.25 (MXFP4: an E8M0 scale per 32)
    [("nvidia-gpu", "b200", "nvfp4", 39), ("amd-gpu", "mi355x", "mxfp4", 37)],
)
def test_fp4_is_asked_and_answered_in_the_devices_own_four_bit_float(hardware, device, served, weights_gb):
    # Review 89, defect 4: "The profile can't ask for FP4" while the device tables list nvfp4 and mxfp4. NVIDIA's
    # TensorRT-LLM and vLLM document NVFP4 on Blackwell
    # (https://nvidia.github.io/TensorRT-LLM/deployment-guide/quick-start-recipe-for-llama3.3-70b-on-trtllm.html), AMD's
    # MXFP4 on MI355X (https://rocm.docs.amd.com/en/latest/how-to/rocm-for-ai/inference/vllm-mxfp4.html).
    result = answer(
        model_type="dense-transformer",
        workload="inference",
        hardware=hardware,
        device=device,
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"quantization": "fp4"},
    )
    row = chosen_serving(result)
    assert served in row.precisions
    capacity = " ".join(r.text for r in result.capacity)
    assert f"about {weights_gb} GB in {served}" in capacity


def test_fp4_on_a_device_without_fp4_units_is_served_as_int4_weights():
    # An H100 lists no FP4 format; the 4-bit answer there is INT4 weights through vLLM's Marlin kernels
    # (https://docs.vllm.ai/en/latest/features/quantization/), the same weight memory, not bf16 at four times it.
    result = answer(
        model_type="dense-transformer",
        workload="inference",
        hardware="nvidia-gpu",
        device="h100-sxm",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"quantization": "fp4", "devices": 2},
    )
    row = chosen_serving(result)
    assert row.precisions == ("int4",)
    texts = result.model_dump_json()
    assert "fp4 asked, and the NVIDIA H100 SXM runs no fp4" in texts
    assert "the plan serves int4" in texts
    assert "about 35 GB in int4" in " ".join(r.text for r in result.capacity)
    assert result.profile.needs.quantization == "fp4"  # the record keeps what was asked


def test_int4_on_a_cpu_takes_an_int4_route_and_no_route_without_it_fits():
    result = answer(
        model_type="dense-transformer",
        workload="inference",
        hardware="arm-cpu",
        device="graviton4",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"quantization": "int4"},
    )
    row = chosen_serving(result)
    assert "int4" in row.precisions
    assert not any(row.stack == "arm-onnxruntime-graviton" and row.fits for row in result.stacks_considered)


def test_a_quantization_outside_the_vocabulary_is_still_one_line_naming_the_choices():
    text = "model_type: dense-transformer\nhardware: nvidia-gpu\nworkload: inference\nteam_skill: framework\n"
    with pytest.raises(ProfileError, match="needs.quantization: 'int2' is not one of none, int8, fp8, int4, fp4"):
        parse_profile(text + "needs: {quantization: int2}\n", "p.yaml")


VIT_ON_GRAVITON = {
    "model_type": "dense-transformer",
    "hardware": "arm-cpu",
    "device": "graviton4",
    "workload": "inference",
    "model": "google/vit-base-patch16-224",
    "needs": {"quantization": "int8"},
}


def test_a_vision_transformer_given_as_a_dense_transformer_is_planned_on_the_vision_stacks_not_an_llm_engine():
    # Review 90 p15 (scored 0): ViT-B/16 INT8 on Graviton4 was sent to llama.cpp. AWS's Graviton guide serves such
    # models with ONNX Runtime or PyTorch (https://github.com/aws/aws-graviton-getting-started/blob/main/machinelearning/onnx.md).
    result = answer(**VIT_ON_GRAVITON)
    row = chosen_serving(result)
    assert row.runner in ("ONNX Runtime", "onnxruntime") or "ONNX Runtime" in row.name
    assert "llama" not in row.name.lower()
    said = " ".join(r.text for r in result.capacity)
    assert "google/vit-base-patch16-224 is a well-known vision model family, not a language model" in said
    assert result.profile.model_type == "dense-transformer"  # the record keeps what was asked
    said = " ".join(r.text for c in result.tier(1).choices for r in c.rationale)
    assert "a vision (cnn) model is served by" in said  # the texts name the planned type for what it stands for
    assert not any("llama" in r.stack for r in result.stacks_considered)  # no LLM engine among the options
    assert any(r.stack == "arm-onnxruntime-int8-cnn-graviton" for r in result.stacks_considered)  # ids untouched


def test_a_vision_id_with_task_generation_stays_a_language_model():
    result = answer(**{**VIT_ON_GRAVITON, "task": "generation"})
    assert "well-known vision model family" not in " ".join(r.text for r in result.capacity)
    assert "llama" in chosen_serving(result).name.lower() or "vllm" in chosen_serving(result).name.lower()


def test_fp8_training_on_a_megatron_recipe_without_fp8_uses_megatron_cores_own_fp8_not_torchao():
    # Review 90 p02: "torchao [dtype=fp8, method=fp8-training]" inside a Megatron Core stack; Megatron Bridge's FP8 runs
    # through Transformer Engine (https://docs.nvidia.com/nemo/megatron-bridge/latest/training/mixed-precision.html).
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="fine-tuning",
        team_skill="hpc",
        model="black-forest-labs/FLUX.1-dev",
        needs={"quantization": "fp8", "devices": 8},
    )
    training = next(row for row in result.stacks_considered if row.chosen and row.workload == "training")
    assert training.stack == "nvidia-megatron-bridge-diffusion-h100"
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert quantization.option == "megatron-core"
    assert quantization.settings["method"] == "fp8-training"
    assert "yours to validate against the bf16 loss curve" in quantization.rationale[0].text


def test_fp8_on_trainium2_names_the_neuron_fp8_recipe_here_and_trainium3s_own_mxfp8():
    # Review 89 p08: tier 1 said the stack "documents no fp8 path on AWS Trainium2" while tier 3 offered ModelOpt FP8,
    # and no switch named Trainium3's MXFP8. Neuron documents static FP8 for Llama 3 on Trn2 with ModelOpt checkpoints
    # and MXFP8 on Trn3 (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/libraries/nxd-inference/).
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        model="Qwen/Qwen3-32B",
        needs={"quantization": "fp8", "devices": 16},
    )
    gap = next(g for g in result.tier(1).gaps if g.concern == "quantization")
    assert "runs fp8 on this device for meta-llama/" in gap.rationale[0].text
    generation = next(s for s in result.switch_conditions if s.id == "device-generation")
    assert (
        "on the AWS Trainium3 (trn3)" in generation.description
        and "runs mxfp8, the fp8 asked" in generation.description
    )


def test_a_cpu_target_says_the_weights_it_sizes_the_servers_memory_for():
    # Review 90 p15 (helper's note): on a CPU the capacity line vanished once the model's size was known.
    result = answer(**VIT_ON_GRAVITON)
    capacity = " ".join(r.text for r in result.capacity)
    assert "capacity: the 0.086B model's weights take about 86 MB in int8" in capacity
    assert "sized with the server" in capacity


def test_a_vision_transformer_given_as_cnn_keeps_its_attention_and_float_layernorm():
    # Review 91 p15 (DINOv2) and review 92 p13 (ViT-L): "attention: a CNN has no attention layers" for a ViT. AWS's
    # Graviton ONNX guide quantizes transformers' MatMuls (https://github.com/aws/aws-graviton-getting-started/blob/main/machinelearning/onnx.md).
    result = answer(**{**VIT_ON_GRAVITON, "model_type": "cnn", "model": "facebook/dinov2-base"})
    assert not any(s.concern == "attention" for s in result.skipped_concerns)
    assert any(c.concern == "attention" for c in result.tier(1).choices)
    assert not any("a CNN has no attention layers" in r.text for s in result.skipped_concerns for r in s.rationale)
    assert not result.profile.convolutional


def test_int4_weights_are_not_called_int4_gemms_and_an_int8_ask_served_as_int4_says_int4_throughout():
    # Review 91 p08/p09: "int4 GEMMs: the profile asks int4" for AWQ weight-only on devices without INT4 units, and a
    # verdict "in bf16" beside an AWQ INT4 quantization part.
    result = answer(
        model_type="dense-transformer",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
        model="Qwen/Qwen3-8B",
        needs={"quantization": "int8", "devices": 8},
    )
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    assert gemm.settings.get("weights") == "int4" and "dtype" not in gemm.settings
    assert not any("int4 GEMMs" in r.text for r in gemm.rationale)
    assert " in int4, on the recipe " in (result.verdict or "")
    assert "in int4 (the format the chosen stack serves here; int8 was asked)" in " ".join(
        r.text for r in result.capacity
    )


def test_a_four_bit_ask_is_cited_by_a_stack_of_the_target_family_that_the_candidate_runs():
    # Review 91 defect 4: an MLX int4 line cited ExecuTorch's stack, and a Hygon line an AMD stack.
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        model="Qwen/Qwen3-8B",
        needs={"quantization": "int4"},
    )
    refs = [c.ref for t in result.tiers if t.tier == 1 for ch in t.choices for r in ch.rationale for c in r.cites]
    assert "apple-mlx-lm-inference.summary" in refs
    assert "apple-executorch-llm-xnnpack.summary" not in refs
    hygon = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="inference",
        model="Qwen/Qwen2.5-72B-Instruct-AWQ",
        needs={"quantization": "int4", "devices": 4},
    )
    cited = [c.ref for t in hygon.tiers if t.tier == 1 for ch in t.choices for r in ch.rationale for c in r.cites]
    assert not any(ref.startswith("amd-") for ref in cited)


def test_a_vision_language_model_given_as_dense_is_planned_as_multimodal():
    # Review 94 p04: Qwen2.5-VL-7B given as dense-transformer got MindIE's text W8A8 route; vllm-ascend serves it as a
    # vision-language model (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/single_npu_multimodal.html).
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"quantization": "fp8"},
    )
    said = " ".join(r.text for r in result.capacity)
    assert "is a well-known vision-language model family: it is planned as `multimodal`" in said
    assert "vision-language" in chosen_serving(result).name
    assert result.profile.model_type == "dense-transformer"


def test_a_vision_transformers_convolution_is_its_patch_embedding():
    result = answer(**{**VIT_ON_GRAVITON, "model_type": "cnn", "model": "facebook/dinov2-base"})
    skipped = next(s for s in result.skipped_concerns if s.concern == "convolution")
    assert "patch embedding" in skipped.rationale[0].text


def test_an_int4_checkpoint_for_vllm_comes_from_a_toolkit_a_stack_pairs_with_it_not_modelopt():
    # Review 94 p01: "quantization modelopt [dtype=int4] - writes checkpoints vLLM loads", while vLLM's ModelOpt loader
    # takes FP8, NVFP4 and MXFP8 only (https://docs.vllm.ai/en/latest/features/quantization/modelopt/); vLLM's INT4 page
    # makes the checkpoint with LLM Compressor (https://docs.vllm.ai/en/latest/features/quantization/llm_compressor/int4/).
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        model="Qwen/Qwen3-32B",
        needs={"quantization": "fp4", "long_context": True},
    )
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert quantization.option != "modelopt"
    text = " ".join(r.text for r in quantization.rationale)
    assert "llm-compressor" in text and "modelopt" not in text


def test_a_vendor_fp8_release_named_by_id_is_served_as_released():
    # Review 96 p04: "if amd/Llama-3.3-70B-Instruct-FP8-KV's authors publish an FP8 release of it" for that very release
    # (https://huggingface.co/amd/Llama-3.3-70B-Instruct-FP8-KV).
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        model="amd/Llama-3.3-70B-Instruct-FP8-KV",
        needs={"quantization": "fp8", "devices": 2},
    )
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    text = " ".join(r.text for r in quantization.rationale)
    assert "is published in FP8: serve that checkpoint as released" in text and "authors publish" not in text


def test_an_int8_release_named_by_id_is_not_said_to_be_missing():
    # Review 96 p07: "no int8 release of Qwen/Qwen2.5-72B-Instruct-GPTQ-Int8 is catalogued here ... serve bf16", while
    # vllm_mlu registers gptq_mlu (https://github.com/Cambricon/vllm-mlu).
    result = answer(
        model_type="dense-transformer",
        hardware="cambricon-mlu",
        device="mlu590",
        workload="inference",
        model="Qwen/Qwen2.5-72B-Instruct-GPTQ-Int8",
        needs={"quantization": "int8", "devices": 4},
    )
    assert "is catalogued here" not in (result.verdict or "")


def test_a_vit_fine_tune_on_iluvatar_takes_the_vit_recipe_and_keeps_the_torchvision_trainer_considered():
    # Review 96 p09: the Swin recipe's main.py builds Swin models only; DeepSparkHub's classification train.py builds any
    # torchvision model by name (https://github.com/Deep-Spark/DeepSparkHub/blob/master/models/cv/classification/resnet50/pytorch/train.py).
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="training",
        training="fine-tuning",
        model="google/vit-base-patch16-224",
        needs={"devices": 8},
    )
    # Review kbiluvatar3 (scenario 779): that trainer builds vit_b_16 with torchvision's own weights only and cannot load
    # Google's Hugging Face checkpoint; DeepSparkHub's one ViT-B fine-tune page, its MAE recipe (BI-V100 only,
    # https://github.com/Deep-Spark/DeepSparkHub/blob/1338302894e9ef04f5b4aa4e980aab415ff2a7c3/models/cv/self_supervised_learning/mae/pytorch/README.md),
    # was the nearer route until review 165 p09: timm's train.py (DeepSparkHub's Wave-MLP recipe on BI-V150) builds
    # vit_base_patch16_224 with the weights transformers converted into google/vit-base-patch16-224
    # (https://github.com/huggingface/transformers/blob/0a8c149f1e2f5dfc13e505d040efb488723e88a2/src/transformers/models/vit/convert_vit_timm_to_pytorch.py);
    # the torchvision trainer stays considered, still building the ViT by name.
    trained = next(row for row in result.stacks_considered if row.chosen)
    assert trained.stack == "iluvatar-timm-train-tiangai-150"
    generic = next(row for row in result.stacks_considered if row.stack == "iluvatar-pytorch-resnet50-training")
    assert "builds the network as torchvision.models" in generic.reason


def test_int4_on_an_android_phone_takes_executorch_and_sizes_the_apps_share():
    # Review 96 p15: ExecuTorch "does not run int4 natively, so ... bf16" and "the server's RAM" for a phone; Arm's
    # learning path runs 4-bit Llama 3.2 with ExecuTorch + XNNPACK + KleidiAI on Android
    # (https://learn.arm.com/learning-paths/smartphones-and-mobile/build-llama3-chat-android-app-using-executorch-and-xnnpack/).
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="armv9-mobile-sme2",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.2-3B-Instruct",
        needs={"quantization": "int4"},
    )
    executorch = next(r for r in result.stacks_considered if r.stack == "arm-executorch-llama-xnnpack-android")
    assert "does not run int4 natively" not in executorch.reason
    capacity = " ".join(r.text for r in result.capacity)
    assert "a phone's memory is shared" in capacity and "server" not in capacity


def test_a_moe_released_in_a_four_bit_float_keeps_its_dense_layers_out_of_it():
    # Reviews 95 p01 and 96 p05: "gemm cublas [dtype=mxfp4] - the dense layers' GEMMs" for gpt-oss, whose checkpoint
    # leaves attention, router and embeddings unquantized (https://huggingface.co/docs/transformers/quantization/mxfp4).
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        model="openai/gpt-oss-120b",
        needs={"quantization": "fp4"},
    )
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    assert gemm.settings.get("dtype") != "mxfp4"
    if "experts" in gemm.settings:
        assert "the layers outside them (attention, router, embeddings)" in gemm.rationale[0].text


def test_a_chosen_stack_whose_software_left_the_vendors_release_says_so():
    # Review 95 p12: FLUX.1-dev on Trn2 got no route; NxD Inference's FLUX tutorial is the documented one, and from Neuron
    # 2.34 AWS no longer supports NxD Inference on Trn2 (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/announcements/neuron2.x/announce-no-support-nxdi-nxd-core-inference-trn.html).
    from advisor.recommendation.summary import summary_lines

    result = answer(
        model_type="diffusion",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        team_skill="kernel",
        model="black-forest-labs/FLUX.1-dev",
    )
    chosen = result.stacks[0]
    assert chosen.stack == "neuron-nxdi-flux-trn2" and chosen.superseded is not None
    assert any(text.startswith("  superseded: From Neuron 2.34") for text in summary_lines(result))
    assert "vLLM Neuron" not in " ".join(c.option for c in result.tier(1).choices)


def test_a_mixture_of_experts_given_as_dense_is_planned_as_moe():
    # Review 97 p03: Qwen3-30B-A3B declared dense got vllm-ascend's dense W8A8 page, its own MoE recipe rejected as
    # "documented for moe" (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/Qwen3-30B-A3B/).
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="Qwen/Qwen3-30B-A3B-Instruct-2507",
        needs={"quantization": "fp8", "devices": 2},
    )
    assert "is a mixture of experts" in " ".join(r.text for r in result.capacity)
    # the tutorial's A2 layouts are their own stack since kbmix defect 2 (A2 and A3 NPU counts differ:
    # https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/Qwen3-30B-A3B.html)
    assert chosen_serving(result).stack == "ascend-vllm-ascend-qwen3-30b-a3b-a2"
    assert result.profile.model_type == "dense-transformer"


def test_an_fp4_checkpoint_toolkit_is_not_blocked_by_the_int4_pairing_rule():
    # Review 98 p01/p04: Quark (MXFP4) and LLM Compressor (NVFP4) were rejected as "no stack here pairs its fp4 output
    # with vLLM"; vLLM loads both (https://docs.vllm.ai/en/latest/features/quantization/quark.html).
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="inference",
        team_skill="kernel",
        model="openai/gpt-oss-120b",
        needs={"quantization": "fp4"},
    )
    assert not any("pairs its fp4 output" in r.text for j in result.rejected for r in j.reasons)


def test_a_vision_language_lora_on_an_m4_takes_mlx_vlm_whose_bf16_training_the_recipe_runs():
    # Review 100 p12: mlx-vlm LoRA was rejected because the M4's list has no bf16, and a text-only mlx-lm trainer was
    # kept; mlx-vlm's LoRA guide trains Qwen2-VL on M1-M4 (https://github.com/Blaizzy/mlx-vlm/blob/main/mlx_vlm/LORA.MD).
    result = answer(
        model_type="multimodal",
        hardware="apple-silicon",
        device="apple-m4",
        workload="both",
        training="lora",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"quantization": "int4"},
    )
    trained = next(row for row in result.stacks_considered if row.chosen and row.workload == "training")
    assert trained.stack == "apple-mlx-vlm-lora" and trained.fits


def test_one_inferentia2_chip_runs_a_multi_device_recipe_over_its_two_neuroncores():
    # Review 99 p12: "this one-device job runs it at parallel degree 1" on an Inf2 chip, which is two NeuronCores
    # (tensor_parallel_size maps to NxD Inference's tp_degree).
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="inf2",
        workload="inference",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"quantization": "int8"},
    )
    reasons = " ".join(r.reason for r in result.stacks_considered)
    assert "parallel degree 1" not in reasons
    # since review 234 p07 no misfit: the deployment row's layout says it
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert deployment.settings["layout here"].startswith("tensor parallel 2 over the device's 2 NeuronCores")


def test_the_gemm_row_says_the_float_format_the_device_runs_not_the_stacks_default():
    # Review 99 p06: "cnnl-bang [dtype=bf16]" on an MLU370, which runs fp16 (the verdict said fp16).
    result = answer(
        model_type="dense-transformer",
        hardware="cambricon-mlu",
        device="mlu370",
        workload="inference",
        model="Qwen/Qwen2.5-7B-Instruct",
    )
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    assert gemm.settings.get("dtype") == "fp16"
    assert " in fp16, on the recipe " in (result.verdict or "")
