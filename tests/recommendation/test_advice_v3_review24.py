"""Review 24's defects, each pinned: a memory check that cannot be made says why, a plan whose devices cannot hold the
model state says so first and is less sure, TensorRT-LLM's attention is its own kernels, a CNN is not warned about LLM
walkthroughs, and an empty official list costs confidence only where tier 1 cannot fill the concern either."""

from __future__ import annotations

from recommendation_builders import answer_for as answer


def test_a_named_model_of_unknown_size_gets_a_capacity_line_saying_so():
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        model="acme/House-MoE-Chat",
        needs={"quantization": "fp8", "devices": 8},
    )
    (text,) = (reason.text for reason in result.capacity)
    assert text.startswith("capacity: not checked: acme/House-MoE-Chat states no size") and "parameters_b" in text


def test_a_device_without_a_memory_figure_gets_a_capacity_line_saying_so():
    result = answer(
        model_type="dense-transformer",
        hardware="cambricon-mlu",
        device="mlu590",
        workload="inference",
        model="Qwen/Qwen2.5-7B-Instruct",
        needs={"quantization": "int8"},
    )
    assert any("no memory figure for Cambricon MLU590" in reason.text for reason in result.capacity)


def test_a_profile_naming_no_model_gets_no_capacity_line():
    result = answer(model_type="dense-transformer", hardware="nvidia-gpu", device="h100-sxm", workload="inference")
    assert result.capacity == ()


def moe_sft_on_64_a3_dies(devices: int = 64):
    return answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="training",
        team_skill="hpc",
        model="Qwen/Qwen3-235B-A22B",
        needs={"long_context": True, "devices": devices},
    )


def test_devices_that_cannot_hold_the_training_state_come_first_in_the_verdict_and_lower_the_confidence():
    short, enough = moe_sft_on_64_a3_dies(), moe_sft_on_64_a3_dies(devices=256)
    assert short.verdict is not None and short.verdict.startswith("First, 64 devices cannot hold the training state")
    assert enough.verdict is not None and not enough.verdict.startswith("First,")
    assert short.confidence < enough.confidence
    assert any("cannot hold the training state" in note for note in short.confidence_notes)


def test_tensorrt_llm_attention_is_its_own_kernels_where_tier_1_is_assembled():
    # Review 24 p02: "attention flashinfer [via=tensorrt-llm]" beside the claim that its default backend is its own.
    result = answer(
        model_type="multimodal",
        hardware="nvidia-gpu",
        device="l40s",
        workload="inference",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"quantization": "fp8", "dynamic_shapes": True},
    )
    tier1 = {c.concern: c for c in result.tiers[0].choices}
    attention = tier1["attention"]
    assert attention.settings.get("via") != "tensorrt-llm"  # never a library said to run inside TensorRT-LLM
    if tier1["deployment"].option == "tensorrt-llm":  # assembled around TensorRT-LLM: its own kernels, as it documents
        assert attention.option == "tensorrt-llm" and "own FMHA and XQA kernels" in attention.rationale[0].text


def test_a_cnn_is_not_warned_about_an_llm_walkthrough():
    result = answer(
        model_type="cnn",
        hardware="arm-cpu",
        device="armv9-mobile-sme2",
        workload="inference",
        team_skill="kernel",
        parameters_b=0.0055,
        needs={"quantization": "int8", "quantization_method": "qat"},
    )
    risks = [risk.text for stack in result.stacks for risk in stack.risks]
    assert risks and not any("Llama" in risk or "LLM" in risk for risk in risks)


def test_an_official_list_left_empty_is_not_noted_where_the_stack_fills_the_concern():
    result = answer(
        model_type="dense-transformer",
        hardware="x86-cpu",
        device="xeon-6-granite-rapids",
        workload="inference",
        team_skill="hpc",
        model="Qwen/Qwen2.5-1.5B-Instruct",
        needs={"quantization": "int8", "dynamic_shapes": True},
    )
    assert "attention" in {c.concern for c in result.tiers[0].choices}
    assert not any("no official option for attention" in note for note in result.confidence_notes)
