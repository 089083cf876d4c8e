"""The equivalence band: the floor for quiet cases, growing with a noisy side's spread, capped."""

from __future__ import annotations

import pytest

from advisor.comparison.band import band_edges, equivalence_band
from advisor.comparison.models import VerdictRule
from probes.models import Stats


def stats_with_spread(rel_iqr: float) -> Stats:
    """Statistics of a case whose IQR/median is `rel_iqr`."""
    return Stats.from_samples([1.0 - rel_iqr / 2, 1.0 - rel_iqr / 2, 1.0, 1.0 + rel_iqr / 2, 1.0 + rel_iqr / 2])


@pytest.mark.parametrize(
    ("spread_a", "spread_b", "band"),
    [
        (0.01, 0.02, 0.06),  # quiet: the floor
        (0.10, 0.02, 0.06),  # at the harness's noise threshold 0.6 x 10% meets the floor
        (0.02, 0.25, 0.15),  # a noisy side widens it: 0.6 x 25%
        (0.80, 0.10, 0.20),  # capped
    ],
)
def test_the_band_follows_the_noisier_side(spread_a, spread_b, band):
    a, b = stats_with_spread(spread_a), stats_with_spread(spread_b)
    assert a.rel_iqr == pytest.approx(spread_a)
    assert equivalence_band(a, b, VerdictRule()) == pytest.approx(band)
    assert equivalence_band(b, a, VerdictRule()) == pytest.approx(band)


def test_the_floor_wins_over_a_lower_cap_and_the_edges_are_log_symmetric():
    quiet = stats_with_spread(0.01)
    assert equivalence_band(quiet, quiet, VerdictRule(band_floor=0.3, band_cap=0.2)) == 0.3
    low, high = band_edges(0.06)
    assert high == pytest.approx(1.06) and low * high == pytest.approx(1.0)
