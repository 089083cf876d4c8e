"""Switch conditions: machine-checkable predicates over profile fields and evidence facts."""

from __future__ import annotations

import pytest
from recommendation_builders import evidence, gemm_cases, profile

from advisor.recommendation.facts import evidence_facts
from advisor.recommendation.switches import condition_holds, observed_values, predicate, predicate_holds, switch


def test_observed_values_flatten_the_profile_and_add_usable_facts():
    chosen = profile(needs={"devices": 4})
    observed = observed_values(chosen, evidence_facts([evidence(gemm_cases(0.5))], chosen.hardware))
    assert observed["profile.team_skill"] == "framework" and observed["profile.needs.devices"] == 4
    assert observed["profile.needs.long_context"] is False
    assert "evidence.gemm_bf16_speedup" not in observed  # CPU speed is no fact of the GPU target
    assert observed_values(profile(hardware="x86-cpu"), evidence_facts([evidence(gemm_cases(0.5))], "x86-cpu"))[
        "evidence.gemm_bf16_speedup"
    ] == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("op", "threshold", "value", "expected"),
    [
        (">=", 1.5, 1.5, True),
        (">=", 1.5, 1.4, False),
        ("<", 1.0, 0.9, True),
        (">", 4.0, 4.0, False),
        ("<=", 0.01, 0.02, False),
        ("==", "hpc", "hpc", True),
        ("!=", "framework", "kernel", True),
        ("==", True, True, True),
        ("==", True, False, False),
        (">", 1.0, 8, True),
        ("==", "hpc", 3.0, False),
        (">=", 1.0, "fast", None),
    ],
)
def test_predicate_holds(op, threshold, value, expected):
    assert predicate_holds(predicate("m", op, threshold), {"m": value}) is expected


def test_an_unobserved_metric_is_undecided():
    assert predicate_holds(predicate("evidence.x", ">", 1.0), {}) is None


def test_compound_conditions():
    condition = switch("c", "both", "a", ">=", 1.5, predicate("b", "<=", 0.01))
    assert condition_holds(condition, {"a": 2.0, "b": 0.005}) is True
    assert condition_holds(condition, {"a": 2.0, "b": 0.05}) is False
    assert condition_holds(condition, {"a": 2.0}) is None
    assert condition_holds(condition, {"a": 1.0}) is False  # one false predicate settles it


def test_switch_conditions_serialize_with_typed_thresholds():
    dumped = switch("x", "d", "profile.needs.cross_platform", "==", True).model_dump(mode="json")
    assert dumped["threshold"] is True
    assert list(dumped)[:5] == ["id", "description", "metric", "op", "threshold"]
