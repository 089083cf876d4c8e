"""`cases_to_remeasure` and `samples_to_decide`: which undecided cases a new measurement would settle, and with what."""

from __future__ import annotations

import math
from datetime import datetime, timezone
from statistics import NormalDist

import numpy as np

from advisor.comparison import cases_to_remeasure, compare_evidence
from advisor.comparison.compare import timing_change
from advisor.comparison.models import VerdictRule
from advisor.comparison.remeasure import samples_to_decide
from advisor.comparison.verdict import timing_verdict
from probes.models import CaseKey, Evidence, HarnessSettings, Measurement, ProbeCase, ProbeConfig


def measurement(median_s: float, sigma: float, count: int, seed: int, stop_reason: str = "converged") -> Measurement:
    samples = np.random.default_rng(seed).lognormal(math.log(median_s), sigma, count).tolist()
    return Measurement.from_samples(samples, stop_reason=stop_reason)


def spread_evenly(median_s: float, sigma: float, count: int) -> Measurement:
    """Samples at the lognormal's evenly spaced quantiles: its spread, without the luck of a draw."""
    quantiles = [NormalDist().inv_cdf((index + 0.5) / count) for index in range(count)]
    return Measurement.from_samples([median_s * math.exp(sigma * z) for z in quantiles], stop_reason="converged")


def case(name: str, timing: Measurement | None, status: str = "ok") -> ProbeCase:
    key = CaseKey(probe="gemm", implementation=name, dtype="fp32", shape={"n": 64}, device="cpu")
    return ProbeCase(key=key, status=status, timing=timing)


def evidence(environment, cases: list[ProbeCase]) -> Evidence:
    started = datetime(2026, 1, 2, tzinfo=timezone.utc)
    config = ProbeConfig(budget_s=60, device_requested="cpu", device="cpu", probes=["gemm"], settings=HarnessSettings())
    return Evidence(environment=environment, config=config, started_at=started, finished_at=started, cases=cases)


def test_the_samples_it_asks_for_decide_a_case_that_straddles_the_band():
    rule = VerdictRule()
    # 3% slower with 5% noise and 10 samples a side: the CI reaches past 1.06.
    few = timing_change(spread_evenly(1e-3, 0.05, 10), spread_evenly(1.03e-3, 0.05, 10), rule)
    verdict, reason, needed = timing_verdict(few, rule)
    assert verdict == "UNCERTAIN" and needed is not None and 10 < needed <= rule.max_samples
    assert f"~{needed} samples per side would decide it" in reason
    decided = 0
    for seed in range(10):  # the same two distributions measured again with that many samples
        rerun = timing_change(
            measurement(1e-3, 0.05, needed, seed=10 + seed), measurement(1.03e-3, 0.05, needed, seed=30 + seed), rule
        )
        decided += timing_verdict(rerun, rule).verdict == "SAME"
    assert decided >= 7  # POWER is 0.8


def test_a_ratio_on_the_band_edge_or_a_noisy_side_asks_for_no_number_of_samples():
    rule = VerdictRule()
    on_edge = timing_change(measurement(1e-3, 0.03, 50, seed=1), measurement(1.06e-3, 0.03, 50, seed=2), rule)
    on_edge = on_edge.model_copy(update={"ratio": 1.06})
    assert samples_to_decide(on_edge, rule) is None
    single_pass = timing_change(
        measurement(1e-3, 0.3, 48, seed=3, stop_reason="single pass"),
        measurement(1e-3, 0.3, 48, seed=4, stop_reason="single pass"),
        rule,
    )
    assert single_pass.paired and samples_to_decide(single_pass, rule) is None


def test_cases_to_remeasure_say_what_each_needs(environment_factory):
    env = environment_factory()
    a = evidence(
        env,
        [
            case("straddles", spread_evenly(1e-3, 0.05, 10)),
            case("noisy", measurement(1e-3, 0.4, 60, seed=2)),
            case("ran-out", measurement(1e-3, 0.02, 30, seed=3)),
            case("settled", measurement(1e-3, 0.02, 200, seed=4)),
            case("unsupported", None, status="skipped"),
        ],
    )
    b = evidence(
        env,
        [
            case("straddles", spread_evenly(1.03e-3, 0.05, 10)),
            case("noisy", measurement(1.6e-3, 0.4, 60, seed=6)),
            case("ran-out", None, status="not-timed"),
            case("settled", measurement(1e-3, 0.02, 200, seed=7)),
            case("unsupported", None, status="skipped"),
        ],
    )
    comparison = compare_evidence(a, b)
    requests = {request.case_id.split("/")[1]: request for request in cases_to_remeasure(comparison)}
    assert set(requests) == {"straddles", "noisy", "ran-out"}
    assert requests["straddles"].need == "more samples" and requests["straddles"].samples_per_side > 10
    assert requests["noisy"].need == "a quiet rerun" and requests["noisy"].samples_per_side is None
    assert requests["ran-out"].need == "a timed run on both sides"
    assert comparison.summary.to_remeasure == 3
