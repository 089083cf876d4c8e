"""Mann-Whitney U and the bootstrap ratio CI against values worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from advisor.comparison.statistics import average_ranks, bootstrap_ratio_of_medians, mann_whitney_u


def test_average_ranks_share_the_ranks_of_ties():
    assert average_ranks(np.array([2.0, 1.0, 2.0, 3.0, 2.0])).tolist() == [3.0, 1.0, 3.0, 5.0, 3.0]


def test_u_without_ties_matches_the_hand_count():
    # Pooled ranks 1..7; A holds ranks 1, 3, 5: U = 9 - 3*4/2 = 3 = pairs (3>2, 5>2, 5>4).
    result = mann_whitney_u([1, 3, 5], [2, 4, 6, 8])
    assert result.u == 3.0
    # mean 6, variance 3*4/12 * 8 = 8; continuity-corrected z = -(3 - 0.5) / sqrt(8)
    assert result.z == pytest.approx(-2.5 / math.sqrt(8))
    assert result.p_value == pytest.approx(math.erfc(2.5 / math.sqrt(8) / math.sqrt(2)))
    assert result.p_value == pytest.approx(0.3768, abs=1e-4)
    assert result.approximate  # 3 and 4 samples: below what the normal approximation needs


def test_u_with_ties_uses_the_tie_corrected_variance():
    # Pooled 1,2,2,2,3 -> ranks 1,3,3,3,5; A = {1,2,2}: R = 7, U = 7 - 6 = 1 (two ties counted half).
    result = mann_whitney_u([1, 2, 2], [2, 3])
    assert result.u == 1.0
    # variance = 3*2/12 * (6 - (27-3)/(5*4)) = 2.4
    assert result.z == pytest.approx(-1.5 / math.sqrt(2.4))


def test_u_is_symmetric_and_all_ties_mean_no_evidence():
    a, b = [1.0, 4.0, 6.0, 7.0], [2.0, 3.0, 5.0]
    assert mann_whitney_u(a, b).u + mann_whitney_u(b, a).u == len(a) * len(b)
    assert mann_whitney_u(a, b).p_value == pytest.approx(mann_whitney_u(b, a).p_value)
    assert mann_whitney_u([1.0] * 10, [1.0] * 10).p_value == 1.0


def test_u_separates_shifted_samples():
    generator = np.random.default_rng(1)
    a = generator.lognormal(0.0, 0.04, 50)
    assert mann_whitney_u(a, a * 1.2).p_value < 1e-10
    assert not mann_whitney_u(a, a * 1.2).approximate


def test_bootstrap_ratio_is_exact_for_constant_samples_and_deterministic():
    interval = bootstrap_ratio_of_medians([1.0] * 9, [2.0] * 9)
    assert (interval.ratio, interval.low, interval.high) == (2.0, 2.0, 2.0)
    generator = np.random.default_rng(2)
    a, b = generator.lognormal(0.0, 0.05, 300), generator.lognormal(math.log(1.2), 0.05, 300)
    first, again = bootstrap_ratio_of_medians(a, b, seed=7), bootstrap_ratio_of_medians(a, b, seed=7)
    assert first == again
    assert first.low < 1.2 < first.high
    assert first.high - first.low < 0.05


def test_empty_samples_are_refused():
    with pytest.raises(ValueError):
        mann_whitney_u([], [1.0])
    with pytest.raises(ValueError):
        bootstrap_ratio_of_medians([1.0], [])


def test_paired_bootstrap_keeps_step_i_with_step_i():
    # Steps of one seeded stream: wildly different sizes, B every step 20% slower. Resampled on their own,
    # the two medians wander apart; resampled in pairs, every ratio is 1.2.
    steps = np.random.default_rng(3).lognormal(0.0, 1.0, 48)
    unpaired = bootstrap_ratio_of_medians(steps, steps * 1.2)
    paired = bootstrap_ratio_of_medians(steps, steps * 1.2, paired=True)
    assert paired.low == pytest.approx(1.2) and paired.high == pytest.approx(1.2)
    assert unpaired.high - unpaired.low > 0.5
    with pytest.raises(ValueError, match="equal lengths"):
        bootstrap_ratio_of_medians([1.0, 2.0], [1.0], paired=True)


@pytest.mark.parametrize("size", [1, 2, 3, 10, 15, 64, 613, 2000])
def test_resampled_medians_are_np_median_of_the_resamples_bit_for_bit(size: int):
    """The bootstrap partitions the picks' ranks instead of their values: every median, ties and even counts
    included, is the one np.median gives on the resampled values, so no verdict moves."""
    from advisor.comparison.statistics import _chunk_rows, _resampled_medians, _resampled_paired_medians

    rng = np.random.default_rng(size)
    samples = rng.lognormal(size=size) * 1e-3
    samples[::3] = samples[0]  # ties
    second = samples[::-1] * 1.07

    def by_value(generator: np.random.Generator, *sides: np.ndarray) -> list[np.ndarray]:
        medians: list[list[np.ndarray]] = [[] for _ in sides]
        chunk = _chunk_rows(sides[0])
        for start in range(0, 300, chunk):
            picks = generator.integers(0, size, size=(min(chunk, 300 - start), size))
            for collected, side in zip(medians, sides):
                collected.append(np.median(side[picks], axis=1))
        return [np.concatenate(collected) for collected in medians]

    expected = by_value(np.random.Generator(np.random.PCG64(3)), samples)[0]
    assert np.array_equal(_resampled_medians(samples, 300, np.random.Generator(np.random.PCG64(3))), expected)
    expected_a, expected_b = by_value(np.random.Generator(np.random.PCG64(4)), samples, second)
    got_a, got_b = _resampled_paired_medians(samples, second, 300, np.random.Generator(np.random.PCG64(4)))
    assert np.array_equal(got_a, expected_a) and np.array_equal(got_b, expected_b)
