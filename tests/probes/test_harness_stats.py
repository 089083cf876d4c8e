"""Stats.from_samples against hand-computed values, and the order-statistic CI against brute force."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from probes.models import Stats
from probes.statistics import median_ci_ranks, quantile


def test_ten_samples_by_hand() -> None:
    stats = Stats.from_samples([7.0, 2.0, 10.0, 1.0, 5.0, 3.0, 9.0, 4.0, 8.0, 6.0])
    assert stats.n == 10
    assert stats.median == 5.5
    # Linear interpolation: q1 at position 0.25 * 9 = 2.25 -> 3 + 0.25 * (4 - 3).
    assert stats.q1 == 3.25
    assert stats.q3 == 7.75
    assert stats.iqr == 4.5
    assert (stats.min, stats.max, stats.mean) == (1.0, 10.0, 5.5)
    # P(B <= 1) = 11/1024 for B ~ Bin(10, 1/2): [x(2), x(9)] covers 1 - 22/1024; [x(3), x(8)] only 0.89.
    assert (stats.ci_low, stats.ci_high) == (2.0, 9.0)
    assert stats.ci_level == pytest.approx(1 - 22 / 1024)
    assert stats.rel_iqr == pytest.approx(4.5 / 5.5)
    assert stats.noisy


def test_six_stable_samples_by_hand() -> None:
    stats = Stats.from_samples([1.00, 1.01, 0.99, 1.02, 0.98, 1.00])
    assert stats.median == pytest.approx(1.0)
    assert stats.q1 == pytest.approx(0.9925)
    assert stats.q3 == pytest.approx(1.0075)
    # n = 6 is the smallest n whose [min, max] reaches 95%: 1 - 2/64.
    assert (stats.ci_low, stats.ci_high) == (0.98, 1.02)
    assert stats.ci_level == pytest.approx(0.96875)
    assert not stats.noisy


def test_too_few_samples_report_their_lower_coverage() -> None:
    stats = Stats.from_samples([3.0, 1.0, 2.0, 5.0, 4.0])
    assert (stats.median, stats.q1, stats.q3) == (3.0, 2.0, 4.0)
    assert (stats.ci_low, stats.ci_high) == (1.0, 5.0)
    assert stats.ci_level == pytest.approx(1 - 2 / 32)
    single = Stats.from_samples([2.0])
    assert (single.median, single.iqr, single.ci_low, single.ci_high, single.ci_level) == (2.0, 0.0, 2.0, 2.0, 0.0)


def test_empty_samples_are_refused() -> None:
    with pytest.raises(ValueError):
        Stats.from_samples([])


def test_noise_flag_follows_its_threshold() -> None:
    samples = [1.0, 1.0, 1.1, 1.2, 1.3]  # rel_iqr = 0.2 / 1.1
    assert Stats.from_samples(samples).noisy
    assert not Stats.from_samples(samples, noise_threshold=0.25).noisy


def test_quantile_matches_numpy_default() -> None:
    generator = random.Random(3)
    for size in (1, 2, 7, 100):
        values = sorted(generator.lognormvariate(0, 1) for _ in range(size))
        for level in (0.0, 0.25, 0.5, 0.75, 1.0):
            assert quantile(values, level) == pytest.approx(float(np.percentile(values, level * 100)))


@pytest.mark.parametrize("confidence", [0.5, 0.9, 0.95, 0.99])
def test_ci_ranks_are_the_narrowest_that_reach_the_confidence(confidence: float) -> None:
    for n in range(1, 80):
        lower, upper, coverage = median_ci_ranks(n, confidence)
        assert upper == n + 1 - lower
        expected = 1 - 2 * sum(math.comb(n, k) for k in range(lower)) / 2**n
        assert coverage == pytest.approx(max(expected, 0.0))
        if lower > 1:
            assert coverage >= confidence
        narrower = lower + 1
        if narrower <= (n + 1) // 2:
            assert 1 - 2 * sum(math.comb(n, k) for k in range(narrower)) / 2**n < confidence


def test_ci_ranks_scale_to_many_samples() -> None:
    lower, upper, coverage = median_ci_ranks(2000, 0.95)
    # Normal approximation: n/2 -/+ 1.96 * sqrt(n)/2 ~ 956 and 1045.
    assert (lower, upper) == (956, 1045)
    assert 0.95 <= coverage < 0.96
