"""Dynamic-shape rules: a dynamic-shape path, the compile mode from recompilations, static buckets on Ascend."""

from __future__ import annotations

from dataclasses import replace

from recommendation_builders import dynamic_cases, evidence, profile, rule_context

from advisor.recommendation.facts import evidence_facts
from advisor.recommendation.models import Gap
from advisor.recommendation.rules.dynamic_shapes import (
    compile_mode,
    decide_dynamic_shapes,
    mode_switches,
    static_recompiles_too_often,
    static_shape_buckets,
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


def _without_dynamic_shapes(context):
    """The same context on a platform whose data says its stack runs no dynamic shapes natively."""
    platform = context.platform
    static = platform.model_copy(
        update={
            "dynamic_shapes": platform.dynamic_shapes.model_copy(
                update={"value": "no", "note": "compile static shapes only"}
            )
        }
    )
    platforms = tuple(static if p.id == platform.id else p for p in context.knowledge.platforms)
    return replace(context, knowledge=context.knowledge.model_copy(update={"platforms": platforms}))


def test_static_shape_buckets_where_the_platform_runs_no_dynamic_shapes():
    context = _without_dynamic_shapes(rule_context(profile(hardware="ascend-npu", needs=DYNAMIC)))
    gap, rejected = static_shape_buckets(context)
    assert gap.rationale[0].text.startswith("pad inputs to a fixed set of static shapes")
    assert gap.rationale[1].text == "dynamic shapes on Huawei Ascend NPUs (CANN): compile static shapes only"
    assert gap.rationale[1].cites[0].ref == "ascend-npu.dynamic_shapes"
    expected = sorted(
        c.id for c in context.knowledge.for_hardware("ascend-npu").for_concern("dynamic-shapes").candidates
    )
    assert sorted(r.option for r in rejected) == expected and "vllm" in expected
    decision = decide_dynamic_shapes(context)
    assert isinstance(decision.tier1, Gap) and decision.tier3 == decision.tier1


def test_decide_dynamic_shapes():
    assert decide_dynamic_shapes(rule_context(profile())).skipped is not None
    serving = decide_dynamic_shapes(rule_context(profile(needs=DYNAMIC)))
    assert serving.tier1.option == "tensorrt-llm" and serving.tier1.settings == {"mode": "in-flight-batching"}
    cnn = decide_dynamic_shapes(rule_context(profile(model_type="cnn", needs=DYNAMIC)))
    assert cnn.tier1.option == "tensorrt" and cnn.tier1.settings == {"mode": "optimization-profiles"}
    few_shapes = evidence(dynamic_cases(2.0), "nvidia-gpu")
    training = decide_dynamic_shapes(rule_context(profile(workload="training", needs=DYNAMIC), few_shapes))
    assert training.tier1.option == "torch-compile" and training.tier1.settings == {"mode": "static"}
    ascend = decide_dynamic_shapes(rule_context(profile(hardware="ascend-npu", needs=DYNAMIC)))
    assert ascend.tier1.option == "vllm" and ascend.tier1.settings == {"mode": "continuous-batching"}
    assert ascend.tier1.rationale[0].text.startswith("dynamic shapes on Huawei Ascend NPUs (CANN): Operators compute")
