"""Dynamic-shape rules: a dynamic-shape path, the compile mode from recompilations, static buckets on Ascend."""

from __future__ import annotations

from recommendation_builders import dynamic_cases, evidence, profile, rule_context

from advisor.recommendation.facts import evidence_facts
from advisor.recommendation.models import Gap
from advisor.recommendation.rules.dynamic_shapes import (
    compile_mode,
    decide_dynamic_shapes,
    mode_switches,
    static_recompiles_too_often,
    static_shapes_on_ascend,
)

DYNAMIC = {"dynamic_shapes": True}


def _facts(*cases, target="x86-cpu"):
    return evidence_facts([evidence(list(cases))], target)


def test_static_recompiles_too_often():
    assert static_recompiles_too_often(_facts(*dynamic_cases(2.0))) is None
    assert "> 4" in static_recompiles_too_often(_facts(*dynamic_cases(10.0))).text
    assert "hit the recompile limit" in static_recompiles_too_often(_facts(*dynamic_cases(2.0, limit_hit=True))).text


def test_compile_mode():
    assert compile_mode(_facts(*dynamic_cases(2.0)))[0] == "static"
    assert compile_mode(_facts(*dynamic_cases(10.0, dynamic_total=2.0, bucketed_total=1.0)))[0] == "bucketed"
    assert compile_mode(_facts(*dynamic_cases(10.0, dynamic_total=1.0, bucketed_total=2.0)))[0] == "dynamic"
    # On another target the times do not count; the portable padding waste still does.
    assert compile_mode(_facts(*dynamic_cases(10.0, padding=45.0), target="nvidia-gpu"))[0] == "dynamic"
    assert compile_mode(_facts())[0] == "dynamic"


def test_mode_switches():
    assert [s.id for s in mode_switches("static")] == ["static-compile-recompiles"]
    assert [s.id for s in mode_switches("bucketed")] == ["bucketing-padding-waste"]
    assert [s.id for s in mode_switches("dynamic")] == ["dynamic-compile-recompiles"]


def test_static_shapes_on_ascend():
    gap, rejected = static_shapes_on_ascend(rule_context(profile(hardware="ascend-npu", needs=DYNAMIC)))
    assert gap.rationale[0].text.startswith("pad inputs to a fixed set of static shapes")
    assert [r.option for r in rejected] == ["cann-builtin", "onnxruntime", "vllm"]


def test_decide_dynamic_shapes():
    assert decide_dynamic_shapes(rule_context(profile())).skipped is not None
    serving = decide_dynamic_shapes(rule_context(profile(needs=DYNAMIC)))
    assert serving.tier1.option == "tensorrt" and serving.tier1.settings == {"mode": "optimization-profiles"}
    few_shapes = evidence(dynamic_cases(2.0), "nvidia-gpu")
    training = decide_dynamic_shapes(rule_context(profile(workload="training", needs=DYNAMIC), few_shapes))
    assert training.tier1.option == "torch-compile" and training.tier1.settings == {"mode": "static"}
    ascend = decide_dynamic_shapes(rule_context(profile(hardware="ascend-npu", needs=DYNAMIC)))
    assert isinstance(ascend.tier1, Gap) and ascend.tier3 == ascend.tier1
