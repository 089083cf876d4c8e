"""compare_evidence on synthetic evidence pairs whose truth is known (lognormal noise of ~4%)."""

from __future__ import annotations

import math
from datetime import datetime, timezone

import numpy as np
import pytest

from advisor.comparison import compare_evidence
from advisor.comparison.compare import ranked_best_first
from advisor.comparison.models import CaseComparison, TimingChange, VerdictRule
from advisor.comparison.verdict import timing_verdict
from probes.environment.models import TorchInfo
from probes.models import (
    CaseKey,
    Evidence,
    HarnessSettings,
    Measurement,
    NumericError,
    ProbeCase,
    ProbeConfig,
)

NOISE = 0.04  # lognormal sigma: ~4% run-to-run spread, like a quiet CPU


def timed_case(
    implementation: str,
    median_s: float,
    *,
    seed: int,
    n: int = 200,
    sigma: float = NOISE,
    passed: bool | None = None,
    status: str = "ok",
    stop_reason: str = "converged",
) -> ProbeCase:
    samples = np.random.default_rng(seed).lognormal(math.log(median_s), sigma, n).tolist()
    timing = Measurement.from_samples(samples, stop_reason=stop_reason, warmup_calls=3)
    numeric = None
    if passed is not None:
        numeric = NumericError(max_abs=1e-3, max_rel=1e-4 if passed else 5e-2, atol=1e-5, rtol=1e-3, passed=passed)
    shape = {"m": 64, "n": 64, "k": 64}
    key = CaseKey(probe="gemm", implementation=implementation, dtype="fp32", shape=shape, device="cpu")
    return ProbeCase(key=key, status=status, timing=timing if status == "ok" else None, numeric=numeric)


def evidence(environment, cases, *, threads: int = 4, probes=("gemm",)) -> Evidence:
    started = datetime(2026, 1, 2, tzinfo=timezone.utc)
    torch = TorchInfo(version="2.5.1", build="cpu", num_threads=threads)
    config = ProbeConfig(
        budget_s=60, device_requested="auto", device="cpu", probes=list(probes), settings=HarnessSettings()
    )
    return Evidence(
        environment=environment.model_copy(update={"torch": torch}),
        config=config,
        started_at=started,
        finished_at=started,
        cases=cases,
    )


def only_case(comparison) -> CaseComparison:
    assert len(comparison.cases) == 1
    return comparison.cases[0]


@pytest.mark.parametrize("seed", range(10))
def test_pure_noise_is_same_not_slower(environment_factory, seed):
    env = environment_factory()
    a = evidence(env, [timed_case("mm", 1e-3, seed=2 * seed)])
    b = evidence(env, [timed_case("mm", 1e-3, seed=2 * seed + 1)])
    case = only_case(compare_evidence(a, b))
    assert case.verdict == "SAME", case


def test_a_real_slowdown_is_slower_and_a_real_speedup_is_faster(environment_factory):
    env = environment_factory()
    a = evidence(env, [timed_case("slowed", 1e-3, seed=1), timed_case("sped", 1e-3, seed=2)])
    b = evidence(env, [timed_case("slowed", 1.2e-3, seed=3), timed_case("sped", 0.8e-3, seed=4)])
    comparison = compare_evidence(a, b)
    by_implementation = {case.key.implementation: case for case in comparison.cases}
    slowed, sped = by_implementation["slowed"], by_implementation["sped"]
    assert slowed.verdict == "SLOWER" and 1.15 < slowed.timing.ratio < 1.25
    assert slowed.timing.ratio_ci_low > 1.05 and slowed.timing.p_value < 1e-10
    assert sped.verdict == "FASTER" and sped.timing.ratio_ci_high < 0.95
    assert [case.verdict for case in comparison.cases] == ["FASTER", "SLOWER"]  # best first
    assert comparison.verdict_counts["FASTER"] == comparison.verdict_counts["SLOWER"] == 1


def test_few_or_noisy_samples_are_uncertain(environment_factory):
    env = environment_factory()
    a = evidence(env, [timed_case("few", 1e-3, seed=1, n=5), timed_case("noisy", 1e-3, seed=2, n=20, sigma=0.3)])
    b = evidence(env, [timed_case("few", 1.3e-3, seed=3, n=5), timed_case("noisy", 1.07e-3, seed=4, n=20, sigma=0.3)])
    by_implementation = {case.key.implementation: case for case in compare_evidence(a, b).cases}
    assert by_implementation["few"].verdict == "UNCERTAIN"
    assert "too few samples" in by_implementation["few"].reason
    assert by_implementation["noisy"].verdict == "UNCERTAIN"


def test_single_pass_step_samples_are_compared_like_any_other(environment_factory):
    env = environment_factory()
    a = evidence(env, [timed_case("eager", 1e-3, seed=1, n=48, stop_reason="single pass")])
    b = evidence(env, [timed_case("eager", 1.5e-3, seed=2, n=48, stop_reason="single pass")])
    case = only_case(compare_evidence(a, b))
    assert case.timing.single_pass and case.verdict == "SLOWER"


def test_an_accuracy_regression_is_flagged(environment_factory):
    env = environment_factory()
    a = evidence(env, [timed_case("mm", 1e-3, seed=1, passed=True)])
    b = evidence(env, [timed_case("mm", 1e-3, seed=2, passed=False)])
    comparison = compare_evidence(a, b)
    case = only_case(comparison)
    assert case.numeric.accuracy_regression
    assert (case.numeric.max_rel_a, case.numeric.max_rel_b) == (1e-4, 5e-2)
    assert comparison.accuracy_regressions == [case.key.case_id]
    fixed = only_case(compare_evidence(b, a))
    assert not fixed.numeric.accuracy_regression


def test_statuses_decide_when_a_side_is_not_timed(environment_factory):
    env = environment_factory()
    a = evidence(
        env,
        [
            timed_case("breaks", 1e-3, seed=1),
            timed_case("heals", 1e-3, seed=2, status="failed"),
            timed_case("skipped", 1e-3, seed=3, status="skipped"),
        ],
    )
    b = evidence(
        env,
        [
            timed_case("breaks", 1e-3, seed=4, status="failed"),
            timed_case("heals", 1e-3, seed=5),
            timed_case("skipped", 1e-3, seed=6, status="skipped"),
        ],
    )
    verdicts = [(case.key.implementation, case.verdict) for case in compare_evidence(a, b).cases]
    assert verdicts == [("heals", "FIXED"), ("breaks", "NEWLY-FAILING"), ("skipped", "NOT-MEASURED")]


def test_a_case_timed_on_one_side_only_is_not_comparable_and_one_timed_on_neither_is_not_measured(environment_factory):
    env = environment_factory()
    a = evidence(
        env,
        [
            timed_case("ran-out", 1e-3, seed=1),
            timed_case("unsupported", 1e-3, seed=2, status="skipped"),
            timed_case("interpreted", 1e-3, seed=3, status="not-timed"),
        ],
    )
    b = evidence(
        env,
        [
            timed_case("ran-out", 1e-3, seed=4, status="not-timed"),
            timed_case("unsupported", 1e-3, seed=5, status="skipped"),
            timed_case("interpreted", 1e-3, seed=6, status="not-timed"),
        ],
    )
    comparison = compare_evidence(a, b)
    by_implementation = {case.key.implementation: case for case in comparison.cases}
    assert by_implementation["ran-out"].verdict == "NOT-COMPARABLE"
    assert by_implementation["ran-out"].reason == "timed in A only (not-timed in B)"
    assert by_implementation["unsupported"].verdict == by_implementation["interpreted"].verdict == "NOT-MEASURED"
    assert by_implementation["unsupported"].reason == "skipped in both runs"
    summary = comparison.summary
    # Only the case timed in a run counts against the comparable share; the two timed in neither do not.
    assert (summary.timed_cases, summary.comparable, summary.not_measured) == (1, 0, 2)
    assert summary.comparable_share == 0.0 and summary.same_share is None


def test_unmatched_cases_are_listed_on_their_side(environment_factory):
    env = environment_factory()
    shared_a, shared_b = timed_case("shared", 1e-3, seed=1), timed_case("shared", 1e-3, seed=2)
    a = evidence(env, [shared_a, timed_case("only-a", 1e-3, seed=3)])
    b = evidence(env, [shared_b, timed_case("only-b", 1e-3, seed=4)])
    comparison = compare_evidence(a, b)
    assert [case.key.implementation for case in comparison.cases] == ["shared"]
    assert comparison.unmatched_a == ["gemm/only-a/fp32/m=64,n=64,k=64/default/cpu"]
    assert comparison.unmatched_b == ["gemm/only-b/fp32/m=64,n=64,k=64/default/cpu"]


def test_one_differing_control_variable_is_attributable_two_are_not(environment_factory):
    env = environment_factory()
    cases_a, cases_b = [timed_case("mm", 1e-3, seed=1)], [timed_case("mm", 1e-3, seed=2)]
    same = compare_evidence(evidence(env, cases_a), evidence(env, cases_b))
    assert same.controls == [] and same.attributable
    one = compare_evidence(evidence(env, cases_a), evidence(env, cases_b, threads=8))
    assert [(d.variable, d.a, d.b) for d in one.controls] == [("threads", "4", "8")]
    assert one.attributable
    other_cpu = env.model_copy(update={"cpu": env.cpu.model_copy(update={"model_name": "Other Xeon"})})
    two = compare_evidence(evidence(env, cases_a), evidence(other_cpu, cases_b, threads=8))
    assert [d.variable for d in two.controls] == ["cpu", "threads"]
    assert not two.attributable


def test_probe_selection_and_dtype_sets_are_control_variables(environment_factory):
    env = environment_factory()
    a = evidence(env, [timed_case("mm", 1e-3, seed=1)], probes=("gemm",))
    b = evidence(env, [timed_case("mm", 1e-3, seed=2)], probes=("gemm", "int8"))
    assert [(d.variable, d.a, d.b) for d in compare_evidence(a, b).controls] == [("probes", "gemm", "gemm, int8")]


def timing(
    ratio: float, low: float, high: float, p_value: float, n: int = 100, band: float = 0.06, **flags
) -> TimingChange:
    values = dict(
        n_a=n,
        n_b=n,
        median_a_s=1.0,
        median_b_s=ratio,
        ratio=ratio,
        ratio_ci_low=low,
        ratio_ci_high=high,
        band=band,
        paired=False,
        p_value=p_value,
        approximate=False,
        noisy_a=False,
        noisy_b=False,
        single_pass=False,
    )
    return TimingChange(**{**values, **flags})


@pytest.mark.parametrize(
    ("change", "verdict"),
    [
        (timing(0.90, 0.88, 0.92, 1e-5), "FASTER"),  # the whole CI below 1/1.06 = 0.943
        (timing(0.90, 0.88, 0.92, 0.05), "UNCERTAIN"),  # beyond the band but not significant
        (timing(0.90, 0.88, 0.92, 0.05, paired=True), "FASTER"),  # paired steps: the U test does not apply
        (timing(1.10, 1.07, 1.14, 1e-5), "SLOWER"),
        (timing(1.03, 1.02, 1.04, 1e-9), "SAME"),  # significant, but inside the band: noise between runs
        (timing(1.04, 0.97, 1.05, 0.2), "SAME"),
        (timing(1.06, 1.03, 1.09, 1e-4), "UNCERTAIN"),  # the CI straddles 1.06
        (timing(1.00, 0.80, 1.20, 0.9), "UNCERTAIN"),
        (timing(1.00, 0.80, 1.20, 0.9, band=0.25), "SAME"),  # a noisy case's wider band
        (timing(1.50, 1.40, 1.60, 1e-9, n=7), "UNCERTAIN"),
        (timing(1.50, 1.40, 1.60, 1e-9, busy_host_a=True), "UNCERTAIN"),
    ],
)
def test_the_verdict_rule(change, verdict):
    assert timing_verdict(change, VerdictRule())[0] == verdict


def test_the_band_is_symmetric_on_the_log_scale():
    # 1/1.06 = 0.9434: a CI just inside it is SAME, just outside FASTER; swapping A and B mirrors both.
    assert timing_verdict(timing(0.96, 0.944, 0.97, 1e-3), VerdictRule()).verdict == "SAME"
    assert timing_verdict(timing(1 / 0.96, 1 / 0.97, 1 / 0.944, 1e-3), VerdictRule()).verdict == "SAME"
    assert timing_verdict(timing(0.93, 0.92, 0.942, 1e-3), VerdictRule()).verdict == "FASTER"
    assert timing_verdict(timing(1 / 0.93, 1 / 0.942, 1 / 0.92, 1e-3), VerdictRule()).verdict == "SLOWER"


def test_an_undecided_verdict_says_how_many_samples_would_decide_it():
    # ln(1.08/1.04) = 0.038 of CI arm above 1.04 must shrink to ln(1.06/1.04) = 0.019 of room: 3.9x the
    # samples; x ((1.645 + 0.842) / 1.645)^2 = 2.3 more for a rerun to decide it 4 times in 5: 20 -> 180.
    verdict, reason, needed = timing_verdict(timing(1.04, 1.01, 1.08, 1e-4, n=20), VerdictRule())
    assert verdict == "UNCERTAIN" and needed == 180
    assert f"~{needed} samples per side would decide it" in reason
    on_the_edge = timing_verdict(timing(1.06, 1.03, 1.09, 1e-4, n=20), VerdictRule())
    assert on_the_edge.samples_to_decide is None and on_the_edge.reason == "CI straddles the 6% band"
    blocked = timing_verdict(timing(1.50, 1.40, 1.60, 1e-9, noisy_b=True), VerdictRule())
    assert (
        blocked.verdict == "UNCERTAIN"
        and blocked.samples_to_decide is None
        and "rerun on a quiet machine" in blocked.reason
    )


def test_ranking_is_fixed_then_by_ratio_then_failing_then_not_comparable(environment_factory):
    def comparison(verdict, ratio=None):
        key = CaseKey(probe="p", implementation=verdict, dtype="fp32", shape={"n": 1}, device="cpu")
        change = timing(ratio, ratio, ratio, 0.0) if ratio is not None else None
        return CaseComparison(key=key, status_a="ok", status_b="ok", verdict=verdict, reason="", timing=change)

    cases = [
        comparison("NOT-MEASURED"),
        comparison("NOT-COMPARABLE"),
        comparison("SLOWER", 1.3),
        comparison("NEWLY-FAILING"),
        comparison("SAME", 1.0),
        comparison("FIXED"),
        comparison("FASTER", 0.7),
    ]
    ranked = [case.verdict for case in ranked_best_first(cases)]
    assert ranked == ["FIXED", "FASTER", "SAME", "SLOWER", "NEWLY-FAILING", "NOT-COMPARABLE", "NOT-MEASURED"]


def test_a_significant_change_on_a_noisy_side_or_a_busy_host_is_uncertain_not_slower():
    change = timing(2.0, 1.9, 2.1, 1e-40, noisy_b=True)
    verdict, reason, _ = timing_verdict(change, VerdictRule())
    assert verdict == "UNCERTAIN" and "B noisy" in reason
    assert timing_verdict(change, VerdictRule(noisy_blocks_change=False))[0] == "SLOWER"
    quiet = change.model_copy(update={"noisy_b": False})
    assert timing_verdict(quiet, VerdictRule())[0] == "SLOWER"
    busy = quiet.model_copy(update={"busy_host_a": True, "busy_host_b": True})
    verdict, reason, _ = timing_verdict(busy, VerdictRule())
    assert verdict == "UNCERTAIN" and "host busy in A and B" in reason
    assert timing_verdict(busy, VerdictRule(busy_host_blocks_change=False))[0] == "SLOWER"


def test_a_busy_host_recorded_in_the_evidence_reaches_the_verdict(environment_factory):
    from probes.models import HostContention

    env = environment_factory()
    a = evidence(env, [timed_case("mm", 1e-3, seed=1)])
    b = evidence(env, [timed_case("mm", 1.5e-3, seed=2)])
    busy = HostContention(other_cpu_share=0.6, load_average_before=3.0, logical_cores=2, busy=True)
    case = only_case(compare_evidence(a, b.model_copy(update={"host_contention": busy})))
    assert case.timing.busy_host_b and not case.timing.busy_host_a
    assert case.verdict == "UNCERTAIN" and "host busy in B" in case.reason
    assert only_case(compare_evidence(a, b)).verdict == "SLOWER"
