"""Collectives and deployment rules: skipped when not needed, the target's library with its checks otherwise."""

from __future__ import annotations

from recommendation_builders import profile, rule_context

from advisor.recommendation.models import Gap
from advisor.recommendation.rules.collectives import decide_collectives, workload_lines
from advisor.recommendation.rules.deployment import decide_deployment
from advisor.recommendation.stack import runtime_requirements


def test_workload_lines():
    moe = [line.text for line in workload_lines(profile(model_type="moe", workload="training", needs={"devices": 8}))]
    assert moe[0] == "8 devices per job: collectives are on the critical path"
    assert any("all-to-all" in text for text in moe) and any("all-reduce" in text for text in moe)
    assert len(workload_lines(profile(needs={"devices": 2}))) == 1


def test_decide_collectives():
    single = decide_collectives(rule_context(profile()))
    assert single.skipped is not None and single.switch_conditions == ()
    many = decide_collectives(rule_context(profile(hardware="ascend-npu", needs={"devices": 8})))
    assert many.tier1.option == "hccl" and isinstance(many.tier3, Gap)
    moe = decide_collectives(rule_context(profile(model_type="moe", workload="training", needs={"devices": 64})))
    assert moe.tier1.option == "nccl" and moe.tier1.settings == {"expert-all-to-all": "deepep"}
    assert "a full node (8) first where" in moe.switch_conditions[0].description
    assert "the fewest devices that hold the model" in moe.switch_conditions[0].description
    assert [s.id for s in many.switch_conditions] == ["strong-scaling-collapse"]
    cpu = decide_collectives(rule_context(profile(hardware="x86-cpu", needs={"devices": 2})))
    assert isinstance(cpu.tier1, Gap) and cpu.switch_conditions == ()


def test_runtime_requirements():
    assert runtime_requirements(profile()) == ("inference",)
    assert runtime_requirements(profile(needs={"quantization": "fp8", "dynamic_shapes": True})) == (
        "inference",
        "fp8",
        "dynamic_shapes",
    )


def test_decide_deployment():
    assert decide_deployment(rule_context(profile(workload="training"))).skipped is not None
    assert decide_deployment(rule_context(profile())).tier1.option == "tensorrt-llm"
    int8 = decide_deployment(rule_context(profile(needs={"quantization": "int8"}))).tier1
    assert int8.option == "vllm"  # full INT8 W8A8 support before TensorRT-LLM's partial one
    assert decide_deployment(rule_context(profile(model_type="diffusion"))).tier1.option == "tensorrt"
    assert decide_deployment(rule_context(profile(model_type="cnn"))).tier1.option == "tensorrt"
    assert decide_deployment(rule_context(profile(hardware="ascend-npu"))).tier1.option == "vllm"
    assert decide_deployment(rule_context(profile(hardware="ascend-npu", model_type="cnn"))).tier1.option == "atc-acl"
    assert decide_deployment(rule_context(profile(hardware="amd-gpu", model_type="cnn"))).tier1.option == "migraphx"
    assert (
        decide_deployment(rule_context(profile(hardware="x86-cpu"))).tier1.option == "openvino"
    )  # OpenVINO Model Server
    assert decide_deployment(rule_context(profile(hardware="x86-cpu", model_type="cnn"))).tier1.option == "openvino"
    assert decide_deployment(rule_context(profile(hardware="arm-cpu"))).tier1.option == "llama-cpp"
    assert decide_deployment(rule_context(profile(hardware="cambricon-mlu"))).tier1.option == "vllm"
    assert isinstance(decide_deployment(rule_context(profile(hardware="cambricon-mlu", model_type="cnn"))).tier1, Gap)
