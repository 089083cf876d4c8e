"""Review 25's defects, each pinned: tier 2's note names the skill it needs (kernel for Triton or Ascend C; a switch
condition until review 126, which asked for measurable ones), a non-LLM model served on several devices runs replicas with no collectives to choose, and a CPU server's memory
is not reported as an unchecked device figure."""

from __future__ import annotations

from recommendation_builders import answer_for as answer


def test_a_framework_team_is_told_tier_2_opens_at_kernel_skill_where_its_options_are_kernel_work():
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="Qwen/Qwen2.5-32B-Instruct",
        needs={"quantization": "int8", "devices": 4},
    )
    assert not any(condition.metric == "profile.team_skill" for condition in result.switch_conditions)
    notes = [note.text for note in result.tier(2).notes]
    assert any(text.endswith("open to a kernel team") for text in notes), notes


def test_a_diffusion_model_served_on_two_devices_runs_replicas_without_collectives():
    result = answer(
        model_type="diffusion",
        hardware="aws-neuron",
        device="inf2",
        workload="inference",
        model="stabilityai/stable-diffusion-xl-base-1.0",
        needs={"devices": 2},
    )
    skipped = {item.concern: item.rationale[0].text for item in result.skipped_concerns}
    assert "runs as that many replicas" in skipped["collectives"]
    assert "strong-scaling-collapse" not in {condition.id for condition in result.switch_conditions}


def test_an_llm_served_on_several_devices_keeps_its_collectives():
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        needs={"devices": 4},
    )
    assert "collectives" in {choice.concern for choice in result.tiers[0].choices}


def test_a_cpu_server_gets_no_unchecked_memory_line():
    result = answer(
        model_type="cnn",
        hardware="x86-cpu",
        device="xeon-6-granite-rapids",
        workload="inference",
        model="microsoft/resnet-50",
        parameters_b=0.025,
        needs={"quantization": "int8"},
    )
    assert not any("not checked" in reason.text for reason in result.capacity)


E5_ON_GRAVITON = {
    "model_type": "dense-transformer",
    "hardware": "arm-cpu",
    "device": "graviton4",
    "workload": "inference",
    "model": "intfloat/multilingual-e5-large",
    "task": "embedding",
    "needs": {"quantization": "int8", "dynamic_shapes": True},
}
ARM_ORT_EMBEDDINGS = "arm-onnxruntime-sentence-transformers-int8-embeddings"


def e5_on_graviton(*without: str):
    """The e5 INT8 embedding profile on Graviton4, from the built-in knowledge base less the stacks named."""
    import yaml

    from advisor.knowledge.loader import load_knowledge_base
    from advisor.profile import parse_profile
    from advisor.recommendation.engine import recommend

    knowledge = load_knowledge_base()
    knowledge = knowledge.model_copy(update={"stacks": tuple(s for s in knowledge.stacks if s.id not in without)})
    return recommend(parse_profile(yaml.safe_dump({"team_skill": "framework", **E5_ON_GRAVITON})), [], knowledge)


def test_an_assembled_graph_runtime_runs_attention_on_its_own_kernels():
    # Review 25 p15: "attention (none) ... the framework's attention (SDPA) stays" beside an ONNX Runtime deployment.
    # Without the documented Sentence Transformers ONNX stack (and TEI's float stack, which would then serve it in
    # float), tier 1 is assembled per concern.
    assembled = e5_on_graviton(ARM_ORT_EMBEDDINGS, "arm-tei-cpu-graviton")
    tier1 = {choice.concern: choice for choice in assembled.tiers[0].choices}
    assert tier1["deployment"].option == tier1["attention"].option == "onnxruntime"
    assert tier1["attention"].settings["by"] == "runtime"


def test_the_documented_onnx_embedding_stack_runs_attention_on_the_runtimes_kernels():
    # With it, the stack is kept whole: ONNX Runtime's own kernels, the arm64 dynamic INT8 export.
    result = e5_on_graviton()
    assert result.stacks[0].stack == ARM_ORT_EMBEDDINGS
    tier1 = {choice.concern: choice for choice in result.tiers[0].choices}
    assert tier1["deployment"].option == tier1["attention"].option == "onnxruntime"
    assert 'quantization_config="arm64"' in tier1["quantization"].settings["as documented"]


def test_no_engine_race_against_an_engine_that_only_simulates_the_asked_format():
    # OpenVINO runs INT8 natively only on x86 (its CPU device page): no "openvino is faster" switch for INT8 on Arm.
    assert not any(c.id == "openvino-engine-faster" for c in e5_on_graviton().switch_conditions)
