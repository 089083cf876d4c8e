"""Fusion rules: the fuser within the team's skill, the Ascend LayerNorm fact, launch counts for inference."""

from __future__ import annotations

from recommendation_builders import profile, rule_context

from advisor.recommendation.choices import rejection
from advisor.recommendation.citations import cite_profile, line
from advisor.recommendation.rules.fusion import (
    decide_fusion,
    fusion_gain_line,
    launch_count_line,
    with_fusion_gain,
)


def test_fusion_gain_line_quotes_the_recorded_gain(knowledge):
    fact = fusion_gain_line(knowledge.get("ascend-c"))
    assert "18%" in fact.text and "3%" in fact.text and fact.cites[0].ref == "ascend-c.fusion"
    assert fusion_gain_line(knowledge.get("tbe")) is None


def test_launch_count_line(knowledge):
    found = launch_count_line(knowledge.get("torch-compile"), serves=True)
    index = next(i for i, risk in enumerate(knowledge.get("torch-compile").risks) if "kernel launches" in risk.value)
    assert found.cites[0].ref == f"torch-compile.risks[{index}]" and "kernel launches" in found.text
    assert launch_count_line(knowledge.get("torch-compile"), serves=False) is None
    assert launch_count_line(knowledge.get("onednn"), serves=True) is None


def test_rejecting_ascend_c_gives_up_the_layernorm_fusion(knowledge):
    reason = line("needs hpc skill", cite_profile(profile(), "team_skill"))
    updated = with_fusion_gain((rejection(knowledge.get("ascend-c"), "fusion", reason),), knowledge)
    assert updated[0].reasons[-1].text.startswith("given up: ") and "18%" in updated[0].reasons[-1].text


def test_decide_fusion_by_skill():
    served = decide_fusion(rule_context(profile(team_skill="kernel"))).tier1  # an LLM served by TensorRT-LLM
    assert served.option == "tensorrt-llm" and served.settings == {"by": "serving-engine"}
    assert decide_fusion(rule_context(profile(team_skill="kernel", workload="training"))).tier1.option == "triton"
    framework = decide_fusion(rule_context(profile(team_skill="framework", workload="training")))
    assert framework.tier1.option == "torch-compile"
    assert not [s for s in framework.switch_conditions if s.metric.startswith("profile.")]
    ascend_hpc = decide_fusion(rule_context(profile(hardware="ascend-npu", team_skill="hpc", workload="training")))
    assert ascend_hpc.tier1.option == "ascend-c" and "18%" in ascend_hpc.tier1.rationale[0].text
    ascend = decide_fusion(rule_context(profile(hardware="ascend-npu", workload="training")))
    assert ascend.tier1.option == "torch-compile"  # Inductor emits Triton-Ascend kernels through torch_npu
    training = decide_fusion(rule_context(profile(hardware="ascend-npu", workload="training")))
    assert training.tier1.option == "torch-compile"
    cpu_only = decide_fusion(rule_context(profile(hardware="hygon-dcu", workload="training")))
    assert cpu_only.tier1.concern == "fusion" and not hasattr(cpu_only.tier1, "option")
