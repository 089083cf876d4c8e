"""A/A: two runs drawn from one noise distribution come out SAME; a 10% slowdown added to one comes out SLOWER.

The noise follows what two quiet runs of the same machine show (records/0001 and its review run):
lognormal samples with IQR/median of 1-7%, 10 to 200 samples a case, each case shifted between runs
by ~1% (what one run's samples cannot show) and the whole second run 2.5% faster.
"""

from __future__ import annotations

import math
from collections import Counter
from datetime import datetime, timezone

import numpy as np
import pytest

from advisor.comparison import compare_evidence
from advisor.comparison.models import Comparison
from probes.models import CaseKey, Evidence, HarnessSettings, Measurement, ProbeCase, ProbeConfig

CASES = 300
SAMPLE_COUNTS = (10, 20, 50, 200)  # converged quiet cases stop at 10-20; fast ones reach hundreds
SIGMAS = (0.01, 0.05)  # lognormal sigma: IQR/median 1.3-6.7%, below the harness's 10% noise threshold
CASE_SHIFT = 0.01  # each case's own move between runs (log scale sd)
RUN_GAP = 0.025  # the second quiet run was 2.5% faster across the board


def run_pair(
    environment, seed: int, *, gap: float = RUN_GAP, slowdown: float = 1.0
) -> tuple[Evidence, Evidence, list[bool]]:
    """Runs A and B of CASES cases from one noise distribution, B `slowdown` times slower; and which cases
    have typical noise (sigma <= 4%, at least 20 samples)."""
    generator = np.random.default_rng(seed)
    cases_a, cases_b, typical = [], [], []
    for index in range(CASES):
        sigma, count = generator.uniform(*SIGMAS), int(generator.choice(SAMPLE_COUNTS))
        median_s = 10 ** generator.uniform(-5, -2)
        shift_a, shift_b = np.exp(generator.normal(0, CASE_SHIFT, 2))
        key = CaseKey(probe="gemm", implementation=f"mm{index}", dtype="fp32", shape={"n": 64}, device="cpu")
        for cases, factor in ((cases_a, shift_a), (cases_b, shift_b * (1 - gap) * slowdown)):
            samples = generator.lognormal(math.log(median_s * factor), sigma, count).tolist()
            cases.append(
                ProbeCase(key=key, status="ok", timing=Measurement.from_samples(samples, stop_reason="converged"))
            )
        typical.append(sigma <= 0.04 and count >= 20)
    return evidence(environment, cases_a), evidence(environment, cases_b), typical


def evidence(environment, cases: list[ProbeCase]) -> Evidence:
    started = datetime(2026, 1, 2, tzinfo=timezone.utc)
    config = ProbeConfig(budget_s=60, device_requested="cpu", device="cpu", probes=["gemm"], settings=HarnessSettings())
    return Evidence(environment=environment, config=config, started_at=started, finished_at=started, cases=cases)


def verdicts(comparison: Comparison, chosen: list[bool] | None = None) -> Counter[str]:
    """Verdict counts, over the cases whose index is True in `chosen` (all when None)."""
    by_name = {case.key.implementation: case.verdict for case in comparison.cases}
    return Counter(verdict for name, verdict in by_name.items() if chosen is None or chosen[int(name[2:])])


def test_a_and_a_are_mostly_same_and_rarely_faster_or_slower(environment_factory):
    a, b, _ = run_pair(environment_factory(), seed=1)
    comparison = compare_evidence(a, b)
    counts = verdicts(comparison)
    assert counts["SAME"] / CASES >= 0.75, counts
    assert (counts["FASTER"] + counts["SLOWER"]) / CASES <= 0.02, counts
    summary = comparison.summary
    assert summary.comparable_share == 1.0 and summary.same_share == counts["SAME"] / CASES
    assert summary.band_min == summary.band_median == 0.06  # quiet cases: the floor
    assert summary.median_ratio == pytest.approx(1 - RUN_GAP, abs=0.01)


def test_without_a_run_wide_drift_nearly_everything_is_same(environment_factory):
    counts = verdicts(compare_evidence(*run_pair(environment_factory(), seed=2, gap=0.0)[:2]))
    assert counts["SAME"] / CASES >= 0.85, counts
    assert counts["FASTER"] + counts["SLOWER"] == 0, counts


def test_a_ten_percent_slowdown_is_slower_for_cases_with_typical_noise(environment_factory):
    a, b, typical = run_pair(environment_factory(), seed=3, gap=0.0, slowdown=1.10)
    comparison = compare_evidence(a, b)
    counts = verdicts(comparison, typical)
    assert counts["SLOWER"] / sum(counts.values()) >= 0.85, counts
    assert counts["SAME"] + counts["FASTER"] == 0, counts
    everything = verdicts(comparison)
    assert everything["FASTER"] == 0 and everything["SAME"] / CASES <= 0.02, everything


def test_a_ten_percent_slowdown_against_the_run_drift_is_still_mostly_found(environment_factory):
    # B runs 2.5% faster, so the slowdown shows as 7.25%: beyond the 6% band only where the CI is narrow.
    a, b, typical = run_pair(environment_factory(), seed=4, slowdown=1.10)
    counts = verdicts(compare_evidence(a, b), typical)
    assert counts["SLOWER"] / sum(counts.values()) >= 0.4, counts
    assert counts["FASTER"] == 0, counts
