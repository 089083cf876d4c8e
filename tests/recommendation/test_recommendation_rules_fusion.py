"""Fusion rules: the fuser within the team's skill, the Ascend LayerNorm fact, launch counts for inference."""

from __future__ import annotations

from recommendation_builders import profile, rule_context

from advisor.recommendation.choices import rejection
from advisor.recommendation.citations import cite_profile, line
from advisor.recommendation.rules.fusion import (
    decide_fusion,
    launch_count_line,
    layernorm_fusion_line,
    with_layernorm_fact,
)


def test_layernorm_fusion_line(knowledge):
    fact = layernorm_fusion_line(knowledge.get("ascend-c"))
    assert "18%" in fact.text and "3%" in fact.text and fact.cites[0].ref == "ascend-c.fusion"
    assert layernorm_fusion_line(knowledge.get("tbe")) is None


def test_launch_count_line(knowledge):
    assert launch_count_line(knowledge.get("torch-compile"), serves=True).cites[0].ref == "torch-compile.risks[2]"
    assert launch_count_line(knowledge.get("torch-compile"), serves=False) is None
    assert launch_count_line(knowledge.get("onednn"), serves=True) is None


def test_rejecting_ascend_c_gives_up_the_layernorm_fusion(knowledge):
    reason = line("needs hpc skill", cite_profile(profile(), "team_skill"))
    updated = with_layernorm_fact((rejection(knowledge.get("ascend-c"), "fusion", reason),), knowledge.get("ascend-c"))
    assert updated[0].reasons[-1].text.startswith("given up: one LayerNorm took 18%")


def test_decide_fusion_by_skill():
    assert decide_fusion(rule_context(profile(team_skill="kernel"))).tier1.option == "triton"
    framework = decide_fusion(rule_context(profile(team_skill="framework")))
    assert framework.tier1.option == "torch-compile"
    switches = [(s.id, s.op, s.threshold) for s in framework.switch_conditions]
    assert switches == [("fusion-triton-skill", "!=", "framework")]
    ascend_hpc = decide_fusion(rule_context(profile(hardware="ascend-npu", team_skill="hpc")))
    assert ascend_hpc.tier1.option == "ascend-c" and "18%" in ascend_hpc.tier1.rationale[0].text
    ascend = decide_fusion(rule_context(profile(hardware="ascend-npu")))
    assert ascend.tier1.option == "atc-acl"
    assert {s.id for s in ascend.switch_conditions} == {"fusion-ascend-c-skill", "fusion-tbe-skill"}
    training = decide_fusion(rule_context(profile(hardware="ascend-npu", workload="training")))
    assert training.tier1.concern == "fusion" and not hasattr(training.tier1, "option")
