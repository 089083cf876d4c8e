"""Review 21's defects, each pinned: a model released in FP8 gets no 'keep the float model' switch, and a recipe that
documents data-parallel attention beside tensor parallelism makes the layout a measured switch."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

from advisor.recommendation.models import Recommendation


def deepseek_on_b200() -> Recommendation:
    return answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        model="deepseek-ai/DeepSeek-V3",
        needs={"quantization": "fp8", "devices": 8, "long_context": True},
    )


def test_a_model_released_in_fp8_gets_no_switch_back_to_a_float_model():
    # DeepSeek-V3 is published in block-wise FP8 (SGLang's DeepSeek page: serve the official weights as they are); its
    # BF16 upcast does not even fit one 8-GPU node, so "keep the float model" is no action a team can take.
    ids = [condition.id for condition in deepseek_on_b200().switch_conditions]
    assert "fp8-accuracy-drop" not in ids


def test_a_quantized_dense_model_keeps_its_accuracy_gate():
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        model="meta-llama/Llama-3.1-70B-Instruct",
        needs={"quantization": "fp8", "devices": 4},
    )
    assert "fp8-accuracy-drop" in [condition.id for condition in result.switch_conditions]


def test_data_parallel_attention_documented_by_the_recipe_is_a_measured_layout_switch():
    # SGLang's DeepSeek page: --tp 8, or --enable-dp-attention --tp 8 --dp 8 for high-throughput large batches.
    condition = next(c for c in deepseek_on_b200().switch_conditions if c.id == "dp-attention-layout")
    assert condition.metric == "evidence.inference_throughput.dp_attention_over_tensor_parallel"
    assert "--enable-dp-attention" in condition.description and condition.threshold == 1.1


def test_gqa_reference_figures_are_not_quoted_under_an_mla_models_choices():
    result = deepseek_on_b200()
    cited = {
        cite.ref
        for choice in result.tier(1).choices
        for reason in choice.rationale
        for cite in reason.cites
        if cite.kind == "reference"
    }
    assert result.reference  # still listed, labelled as NVIDIA's dense-layer measurements
    assert cited == {"reference.b200_sxm.allreduce_busbw_gbps"}  # the collective's bandwidth depends on no layer


def test_one_fp8_checkpoint_for_vllm_on_amd_and_nvidia_comes_from_the_toolkit_its_stacks_use():
    # vLLM's FP8 W8A8 guide quantizes with LLM Compressor (https://docs.vllm.ai/en/latest/features/quantization/fp8/),
    # and vLLM's hardware table marks FP8 W8A8 as supported on AMD GPUs: one compressed-tensors checkpoint for both.
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
    tier3 = result.tier(3).options()
    assert tier3.get("deployment") == "vllm" and tier3.get("quantization") == "llm-compressor"


def test_a_training_stack_on_a_framework_of_its_own_names_it_instead_of_ddp_or_fsdp():
    # PaddleNLP trains on PaddlePaddle's DCU build (PaddleNLP's DCU guide): PyTorch's DDP/FSDP are not its parallelism.
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="both",
        model="Qwen/Qwen2.5-14B-Instruct",
        needs={"devices": 4},
    )
    framework = next(c for c in result.tier(1).choices if c.concern == "training-framework")
    # Since review 44 p08 the PyTorch route (LLaMA-Factory's DCU fork, https://github.com/FlyAIBox/dcu-in-action) is
    # chosen for a job that serves what it trains: PaddleNLP's page keeps its checkpoints in Paddle's format
    # (https://github.com/PaddlePaddle/PaddleNLP/blob/develop/llm/devices/dcu/llama/README.md). Either way the
    # framework is named, not DDP or FSDP.
    # LLaMA-Factory is a knowledge-base candidate since review 72 p08 (its id, the fork named in the part)
    assert framework.option == "llama-factory" and "OpenDAS DCU fork" in framework.settings["part"]
    assert "DDP" not in framework.option and "FSDP" not in framework.option
    assert not any(skipped.concern == "training-framework" for skipped in result.skipped_concerns)


def test_a_one_device_training_job_is_not_told_about_ddp_or_fsdp():
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m3",
        workload="both",
        model="meta-llama/Llama-3.2-3B-Instruct",
        needs={"devices": 1},
    )
    texts = [reason.text for skipped in result.skipped_concerns for reason in skipped.rationale]
    assert texts and not any("DDP" in text or "FSDP" in text for text in texts)


def test_a_one_device_service_gets_no_tensor_parallel_scaling_warning():
    result = answer(
        model_type="multimodal",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"devices": 1},
    )
    texts = [reason.text for choice in result.tier(1).choices for reason in choice.rationale]
    assert texts and not any("strong-scaling" in text or "Tensor-parallel" in text for text in texts)


def test_replicas_the_memory_line_proposes_are_a_measured_switch_against_the_split_model():
    # Review 22 (p01): 70B in FP8 fits two H200s with half their memory for the KV cache; the recipe splits the model
    # over all four (tp_size = GPU count), so which layout serves more at the SLA is measured, not assumed.
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="inference",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"quantization": "fp8", "devices": 4},
    )
    condition = next(c for c in result.switch_conditions if c.id == "replicas-over-split")
    assert condition.metric == "evidence.inference_throughput.replicas_over_single_split"
    assert condition.description.startswith("2 replicas of 2 devices")
