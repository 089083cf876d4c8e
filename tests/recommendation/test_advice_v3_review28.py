"""Review 28's defects, each pinned: a point release is another model, a stack whose quantized format exists only as
its publisher's checkpoints is a partial fit for any other model, a same-generation reason names each side's
generation, the RTX PRO 6000 (sm_120) is not B200's generation, and Apple's GPUs get the half format they document."""

from __future__ import annotations

import datetime as dt

from recommendation_builders import answer_for as answer

from advisor.knowledge.loader import load_knowledge_base
from advisor.knowledge.stacks import model_matches
from advisor.recommendation.summary import summary_lines
from advisor.records.decision import build_front_matter
from advisor.records.render import render_record


def option(result, stack_id):
    return next(option for option in result.stacks_considered if option.stack == stack_id)


def test_a_deepseek_v3_recipe_does_not_serve_deepseek_v3_2():
    # DeepSeek-V3.2 adds DeepSeek Sparse Attention and has its own SGLang page (docs.sglang.io/basic_usage/
    # deepseek_v32.html); SGLang's V3 page covers "DeepSeek V3/V3.1/R1" and the stacks from it list V3.1 by name.
    assert not model_matches("deepseek-ai/DeepSeek-V3", "deepseek-ai/DeepSeek-V3.2")
    assert model_matches("deepseek-ai/DeepSeek-V3", "deepseek-ai/DeepSeek-V3-0324")
    kb = load_knowledge_base()
    sglang = next(stack for stack in kb.stacks if stack.id == "nvidia-sglang-deepseek-fp8-blackwell")
    assert any(model_matches(listed, "deepseek-ai/DeepSeek-V3.1") for listed in sglang.applies_to.models)
    profile = {
        "model_type": "moe",
        "hardware": "nvidia-gpu",
        "device": "b200",
        "workload": "inference",
        "model": "deepseek-ai/DeepSeek-V3.2",
        "needs": {"quantization": "fp8", "devices": 8},
    }
    result = answer(**profile)
    chosen = {option.stack for option in result.stacks_considered if option.chosen}
    assert chosen and chosen <= {"nvidia-vllm-deepseek-v32", "nvidia-sglang-deepseek-v32"}
    v3 = [option for option in result.stacks_considered if option.stack == "nvidia-sglang-deepseek-fp8-blackwell"]
    assert all(not option.fits for option in v3)


def test_int8_only_as_the_publishers_checkpoints_is_a_partial_fit_for_another_model():
    # Hygon's cookbook serves INT8 W8A8 only as Hygon's own checkpoints (DeepSeek-R1-Distill-Llama-70B, GLM-4.7) and
    # documents no way to quantize a team's model (review 28 p08: "fits the whole profile" for R1-Distill-Qwen-32B).
    profile = {
        "model_type": "dense-transformer",
        "hardware": "hygon-dcu",
        "device": "k100-ai",
        "workload": "inference",
        "needs": {"quantization": "int8", "devices": 2},
    }
    other = answer(**profile, model="deepseek-ai/DeepSeek-R1-Distill-Qwen-32B")
    chosen = option(other, "hygon-vllm-cookbook-k100-ai")
    assert not chosen.fits and "serves only published checkpoints of" in chosen.reason
    assert "none of deepseek-ai/DeepSeek-R1-Distill-Qwen-32B" in chosen.reason
    published = answer(
        **{**profile, "needs": {"quantization": "int8", "devices": 8}},
        model="deepseek-ai/DeepSeek-R1-Distill-Llama-70B",
    )
    assert option(published, "hygon-vllm-cookbook-k100-ai").fits
    assert published.confidence > other.confidence
    bf16 = answer(**{**profile, "needs": {"devices": 2}}, model="deepseek-ai/DeepSeek-R1-Distill-Qwen-32B")
    assert "published checkpoints" not in option(bf16, "hygon-vllm-cookbook-k100-ai").reason


def test_a_same_generation_reason_names_the_generation_of_each_side():
    # Review 28 p01: "validated on b200 (Blackwell Ultra, as b300)" called B200 a Blackwell Ultra part.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b300",
        workload="inference",
        model="deepseek-ai/DeepSeek-R1",
        needs={"quantization": "fp8", "devices": 8},
    )
    reasons = " ".join(option.reason for option in result.stacks_considered)
    assert "(Blackwell; b300 is Blackwell Ultra)" in reasons
    assert "(Blackwell Ultra, as b300)" not in reasons


def test_rtx_pro_6000_is_not_the_data_centre_blackwell_generation():
    # Compute capability 12.0 against B200's 10.0 (NVIDIA's MIG supported-GPU list); CUTLASS: sm_100a kernels are not
    # portable to other architectures. A recipe validated on B200 is another generation's there (review 28 p02).
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="rtx-pro-6000-server",
        workload="inference",
        model="black-forest-labs/FLUX.1-dev",
        needs={"quantization": "fp8", "devices": 1},
    )
    # B200 is never taken for its generation; the GeForce RTX 5090 (compute capability 12.0) is (review 62 p15)
    same = [
        option.reason for option in result.stacks_considered if "not on rtx-pro-6000-server itself" in option.reason
    ]
    assert same and not any("b200" in reason.split("not on rtx-pro-6000-server itself")[0] for reason in same)
    assert all("rtx-5090 (RTX Blackwell, as rtx-pro-6000-server)" in reason for reason in same)


def test_an_apple_gpu_that_documents_fp16_and_not_bf16_runs_fp16():
    # Apple's feature-set tables list no bfloat row (apple-silicon.yaml, devices); review 28 p13 was told "bf16 ... the
    # tensor-core default" on an M4 whose formats are fp32, fp16 and int8.
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        model="Qwen/Qwen3-8B",
        needs={"devices": 1},
    )
    gemm = next(choice for choice in result.tiers[0].choices if choice.concern == "gemm")
    assert gemm.settings.get("dtype") == "fp16"
    assert not any("tensor-core" in reason.text for reason in gemm.rationale)
    assert any("bf16 is not listed there" in reason.text for reason in gemm.rationale)
    assert result.verdict is not None and " in fp16" in result.verdict


def test_a_model_that_fits_one_node_is_offered_a_replica_per_node():
    # Review 28 p05: 235 GB of INT8 weights on 16 x 64 GB 910B; one 8-NPU node holds them with room for the KV cache,
    # and the record never said so.
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="Qwen/Qwen3-235B-A22B-Instruct-2507",
        needs={"quantization": "int8", "devices": 16},
    )
    capacity = " ".join(reason.text for reason in result.capacity)
    assert "they fit one node of 8 with about 226 GB left there for the KV cache" in capacity
    assert "2 replicas, one per node" in capacity
    switch = next(s for s in result.switch_conditions if s.id == "replicas-over-split")
    assert "2 replicas of 8 devices" in switch.description


def test_a_recipe_the_current_release_withdrew_is_a_partial_fit():
    # MindSpeed LLM 26.2.0's release notes withdrew the Qwen3-32B recipe (review 28 p06: "fits the whole profile").
    base = {
        "model_type": "dense-transformer",
        "hardware": "ascend-npu",
        "device": "ascend-910c",
        "workload": "training",
    }
    withdrawn = answer(**base, model="Qwen/Qwen3-32B", needs={"devices": 256})
    mindspeed = option(withdrawn, "ascend-mindspeed-llm-dense-training")
    assert not mindspeed.fits and "withdrew the recipe for Qwen/Qwen3-32B" in mindspeed.reason
    kept = answer(**base, model="Qwen/Qwen3-8B", needs={"devices": 8})
    assert option(kept, "ascend-mindspeed-llm-dense-training").fits


def test_fp8_asked_with_qat_for_a_training_job_is_held_to_the_loss_curve():
    # FP8 "QAT" in a training-only job is FP8 training (method fp8-training): no exported QAT model to score (p03).
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="training",
        team_skill="kernel",
        model="Qwen/Qwen3-30B-A3B",
        needs={"quantization": "fp8", "quantization_method": "qat", "devices": 64},
    )
    ids = {s.id for s in result.switch_conditions}
    # held to the loss curve: where the stack documents MXFP8 on this device, the one switch on that gate runs the
    # block-scaled path before BF16 (review 63 p05 found two switches on one trigger)
    loss = [s for s in result.switch_conditions if s.metric == "evidence.fp8_loss_gap"]
    assert len(loss) == 1 and loss[0].id in ("fp8-loss-gap", "training-in-mxfp8")
    assert "fp8-accuracy-drop" not in ids
    int8_qat = answer(
        model_type="cnn",
        hardware="nvidia-gpu",
        workload="training",
        needs={"quantization": "int8", "quantization_method": "qat"},
    )
    assert "int8-accuracy-drop" in {s.id for s in int8_qat.switch_conditions}


def test_a_cross_platform_verdict_names_the_one_checkpoint_to_ship():
    # p04: Quark in tier 1 and LLM Compressor in tier 3, and no word on which FP8 checkpoint serves both families.
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={
            "quantization": "fp8",
            "devices": 8,
            "cross_platform": True,
            "other_hardware": ["nvidia-gpu"],
            "other_devices": ["h100-sxm"],
        },
    )
    assert result.verdict is not None
    assert "serving one fp8 checkpoint written by llm-compressor, which it loads on each" in result.verdict


def test_a_fine_tune_prefers_a_stack_documented_for_fine_tuning_and_lora_sizes_only_the_frozen_weights():
    profile = {
        "model_type": "dense-transformer",
        "hardware": "aws-neuron",
        "device": "trn2",
        "workload": "training",
        "model": "Qwen/Qwen3-8B",
        "needs": {"devices": 16},
    }
    unsaid = answer(**profile)
    assert option(unsaid, "neuron-torchtitan-pretraining").fits
    fine_tune = answer(**profile, training="fine-tuning")
    assert "documented for pretraining, not fine-tuning" in option(fine_tune, "neuron-torchtitan-pretraining").reason
    lora = answer(**{**profile, "model": "meta-llama/Llama-3.1-70B", "needs": {"devices": 1}}, training="lora")
    capacity = " ".join(reason.text for reason in lora.capacity)
    assert "LoRA fine-tuning of a 70B model holds about 140 GB of frozen bf16 weights" in capacity
    assert "Adam state (16 bytes" not in capacity


def test_a_training_recipes_own_quantization_part_fills_the_concern():
    # Review 29 p10: MaxText's Ironwood FP8 recipe quantizes with Qwix (fp8_full), yet the record said "no fp8 qat
    # toolkit for google-tpu" and lowered the confidence for an open concern.
    result = answer(
        model_type="moe",
        hardware="google-tpu",
        device="tpu7x",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        model="Qwen/Qwen3-30B-A3B",
        needs={"quantization": "fp8", "quantization_method": "qat", "devices": 256},
    )
    quantization = next(choice for choice in result.tiers[0].choices if choice.concern == "quantization")
    assert quantization.option == "maxtext" and "fp8_full" in quantization.settings.get("as documented", "")
    assert not any("concern(s) open" in note for note in result.confidence_notes)
    glm = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b300",
        workload="inference",
        model="zai-org/GLM-4.6",
        needs={"quantization": "fp8", "devices": 8},
    )
    assert not any(option.chosen and "deepseek" in option.stack for option in glm.stacks_considered)


def test_tier_1_of_a_cross_platform_job_speaks_of_the_target_alone():
    # Review 29 p04: MI300X's tier 1 attention was justified with "flash-attn on sm8x and cuDNN fused attention on
    # sm90", NVIDIA's text, because the profile also names NVIDIA; tiers 1 and 2 run on the target only.
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        model="meta-llama/Llama-3.1-8B",
        needs={"quantization": "fp8", "devices": 64, "cross_platform": True, "other_hardware": ["nvidia-gpu"]},
    )
    tier1 = " ".join(reason.text for choice in result.tiers[0].choices for reason in choice.rationale)
    assert "NVIDIA" not in tier1 and "cuDNN fused attention on sm90" not in tier1


def test_a_diffusion_recipe_with_an_fp4_path_gets_the_switch_gated_on_image_quality():
    # Review 29 p02: demoDiffusion runs --fp4 (NVFP4) engines on Blackwell, and the FP8 FLUX record offered no FP4 step.
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        model="black-forest-labs/FLUX.1-dev",
        needs={"quantization": "fp8", "devices": 1},
    )
    nvfp4 = next(s for s in result.switch_conditions if s.id == "inference-in-nvfp4")
    assert "image-quality evaluation" in nvfp4.description and "images per second" in nvfp4.description


def test_a_cross_platform_verdict_says_when_each_family_quantizes_its_own_model():
    # ONNX Runtime's documented int8 embedding exports differ by ISA (avx512_vnni on x86, arm64 on Graviton): one model
    # per family, not one checkpoint for all (review 28 p14, with the stacks from the sentence-transformers page).
    result = answer(
        model_type="dense-transformer",
        task="embedding",
        hardware="x86-cpu",
        device="xeon-6-granite-rapids",
        workload="inference",
        model="Qwen/Qwen3-Embedding-0.6B",
        needs={
            "quantization": "int8",
            "devices": 1,
            "cross_platform": True,
            "other_hardware": ["arm-cpu"],
            "other_devices": ["graviton4"],
        },
    )
    assert result.verdict is not None
    assert "each family serving its own int8 model written by onnxruntime" in result.verdict
    assert "serving one int8 checkpoint" not in result.verdict


def test_a_recipe_taken_on_an_assumed_model_says_which_and_how_to_check():
    # mflux (written for its own ports of FLUX.1 and others) trains diffusion models on Apple silicon: with no model
    # named, it is taken on that assumption, stated in the confidence notes and the stack's own line. (On a B200 the
    # first example, demoDiffusion, is now second to Diffusers' pipelines, a route for any model: review 84 p02.)
    result = answer(model_type="diffusion", hardware="apple-silicon", workload="training")
    stack = result.stacks[0]
    assert stack.model_assumed and stack.models
    assert any("the profile names no model, so one of them is assumed" in note for note in result.confidence_notes)
    assert f"  written for {', '.join(stack.models)} (assumed:" in "\n".join(summary_lines(result))


def test_a_lora_job_merges_its_adapters_before_the_serving_side_takes_the_checkpoint():
    # Review 29 p09 (the record): "a BF16 Hugging Face checkpoint (what training writes) that INC calibrates", but LoRA
    # training writes adapters; the merge comes first unless the training stack's own export says it.
    profile = {
        "model_type": "dense-transformer",
        "hardware": "intel-gaudi",
        "device": "gaudi3",
        "workload": "both",
        "model": "meta-llama/Llama-3.3-70B-Instruct",
        "needs": {"quantization": "fp8", "devices": 8},
    }
    lora = answer(**profile, training="lora")
    assert lora.verdict is not None and "merge the LoRA adapters into the base model first" in lora.verdict
    full = answer(**profile, training="fine-tuning")
    assert full.verdict is not None and "merge the LoRA adapters" not in full.verdict


def test_a_cross_platform_record_names_each_familys_stack_and_leads_its_consequences_with_tier_3():
    # Review 30's record (MI355X with an H200 fleet): it left out the H200-side stack and said "Good, because tier 1
    # is ..." though tier 3 was the primary tier.
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi355x",
        workload="inference",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={
            "quantization": "fp8",
            "devices": 1,
            "cross_platform": True,
            "other_hardware": ["nvidia-gpu"],
            "other_devices": ["h200-sxm"],
        },
    )
    front = build_front_matter(1, "70B FP8 on MI355X and H200", result, [], None, ["Ann"], dt.date(2026, 12, 4))
    record = render_record(front, result, [])
    assert "* on nvidia-gpu, the stack documented there for the NVIDIA H200 SXM:" in record
    consequences = record[record.index("## Consequences") :]
    assert consequences.index("Good, because tier 3, the primary tier") < consequences.index("Good, because tier 1")
    assert len(record.splitlines()) <= 150


def test_a_training_format_the_device_list_does_not_name_is_said_so():
    # Review 30 p13: MLX LoRA trains in bf16 on an M4 whose documented formats (Apple's feature tables) list no bf16.
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        workload="training",
        training="lora",
        model="Qwen/Qwen3-8B",
        needs={"devices": 1},
    )
    gemm = next(choice for choice in result.tiers[0].choices if choice.concern == "gemm")
    assert gemm.settings.get("dtype") == "bf16"
    assert any("do not list it" in reason.text for reason in gemm.rationale)


def test_a_model_released_quantized_is_not_served_as_a_float_copy_by_a_stack_that_fits_as_well():
    # Kimi-K2-Thinking is released in INT4 (its model card: native INT4 from quantization-aware training); the generic
    # MI355X stack "fit as well" and a switch proposed it "run in int4" (review 30 p01, the Kimi helper's note).
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="inference",
        model="moonshotai/Kimi-K2-Thinking",
        needs={"devices": 8},
    )
    assert result.stacks[0].stack == "amd-vllm-kimi-k2-thinking"
    generic = option(result, "amd-vllm-aiter-mxfp4-mi355x")
    assert (
        not generic.fits
        and "bf16 copy of moonshotai/Kimi-K2-Thinking, which is released in int4, at 4x" in generic.reason
    )
    assert not any(s.id.endswith("-faster") for s in result.switch_conditions)


def test_two_stacks_on_one_engine_are_not_raced_as_two_engines():
    stacks = {stack.id: stack for stack in load_knowledge_base().stacks}
    assert stacks["amd-vllm-kimi-k2-thinking"].runner_key == stacks["amd-vllm-aiter-mxfp4-mi355x"].runner_key
    assert stacks["iluvatar-igie-cnn-zhikai-100"].runner_key != stacks["iluvatar-ixrt-cnn-zhikai-100"].runner_key


def test_a_cnn_served_as_a_compiled_graph_leaves_no_kernel_concern_to_the_framework():
    # Review 31 p10: "convolution (none) ... the framework's own convolutions stay" beside an IGIE engine that
    # compiles the served graph (DeepSparkInference's IGIE ResNet-50 recipe).
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
        needs={"quantization": "int8", "devices": 1},
    )
    tier1 = {choice.concern: choice for choice in result.tiers[0].choices}
    assert tier1["convolution"].option == "corex" and tier1["convolution"].settings.get("by") == "runtime"
    assert "convolution" not in {gap.concern for gap in result.tiers[0].gaps}


def test_hopper_devices_do_not_claim_blackwell_formats():
    # Review 31: the H100/H200 spec notes read "BF16, FP8, MXFP8 and NVFP4 per" Transformer Engine's support matrix,
    # which lists MXFP8 and NVFP4 for Blackwell only.
    nvidia = load_knowledge_base().platform("nvidia-gpu")
    for device_id in ("h100-sxm", "h200-sxm"):
        device = nvidia.device(device_id)
        assert device is not None and "MXFP8 and NVFP4 only from Blackwell" in (device.spec.note or "")
        assert not {"mxfp8", "nvfp4"} & set(device.formats)


def test_a_portable_training_framework_runs_the_kernels_on_each_family_not_a_kernel_language():
    # Review 31 p03: tier 3 of an H100 + MI300X fine-tune put "gemm triton" beside "training-framework megatron-core",
    # whose layers (Transformer Engine and its ROCm port) run the GEMMs on each family; Triton is tier 2's.
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="fine-tuning",
        team_skill="kernel",
        model="meta-llama/Llama-3.1-8B",
        needs={"devices": 16, "cross_platform": True, "other_hardware": ["amd-gpu"], "other_devices": ["mi300x"]},
    )
    tier3 = {choice.concern: choice for choice in result.tier(3).choices}
    assert tier3["training-framework"].option == "megatron-core"
    assert tier3["gemm"].option == "megatron-core" and tier3["gemm"].settings.get("by") == "training-framework"
    assert "triton" not in {choice.option for choice in tier3.values()}


def test_a_document_model_recipe_does_not_serve_another_vision_language_model():
    # Review 32 p08: PaddleOCR's Hygon page serves PaddleOCR-VL (0.9B) only, yet it "fit the whole profile" of a
    # Qwen2.5-VL-7B team; Hygon's cookbook serves Qwen2.5-VL on the K100_AI, on a page of its own (review 67 p08:
    # https://github.com/HYGON-AI/inference-cookbook-das/blob/main/docs/model-deployment/vllm/qwen2.5-vl.md).
    result = answer(
        model_type="multimodal",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="inference",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"devices": 1},
    )
    assert result.stacks[0].stack == "hygon-vllm-qwen25-vl-cookbook-k100-ai"
    assert "written for PaddlePaddle/PaddleOCR-VL" in option(result, "hygon-paddleocr-vl-vllm-k100-ai").reason
