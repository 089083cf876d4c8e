"""The equivalence band of one case: how far B/A may stray from 1 with nothing changed.

Two runs of the same machine do not time a case alike: the whole machine drifts between runs
(frequency, memory placement), and a case whose samples spread widely within a run also moves more
between runs. Neither shows in one run's samples, so the band is set from what does:

    band = max(band_floor, min(band_cap, band_per_spread x max(IQR/median of A, of B)))

with the defaults 0.6 x spread, at least 6% and at most 20%: a quiet case (IQR/median up to the
harness's 10% noise threshold) gets the floor, a noisy one a band that grows with its spread. A
case timed on several visits of a run also measures the drift itself: its band is at least as wide
as its visits stray from each other on either side (advisor/comparison/visits.py), and at least as
wide as the machine-speed reference kernel moved between the two runs while the case's probe ran
(advisor/comparison/machine.py; same torch only), both up to the cap: a case that moved no further
than the machine itself did is SAME within the band the report gives. On the five A/A pairs whose
reference moved 15-50% (bench/bench_aa.py), this raised SAME from 53-77% to 62-89%; a wider band
never makes a FASTER/SLOWER, it can only turn one into SAME or UNCERTAIN.

The floor comes from the quiet runs committed under records/ (2026-11-29, minutes apart): the
median case moved 2.5%, a few quiet ones 5-8%. Over 180 case pairs among them, 6% called 83% SAME
and none FASTER/SLOWER, where 5% called 1.7% FASTER/SLOWER.

The band is a half-width on the log scale: SAME needs the CI of B/A inside [1 / (1 + band),
1 + band], so swapping A and B keeps the verdict. It does not shrink with more samples (the CI
does): more samples decide a case, they do not move the line it is judged against.
"""

from __future__ import annotations

import math
from typing import Literal

from advisor.comparison.models import VerdictRule
from probes.models import Stats


def equivalence_band(
    a: Stats, b: Stats, rule: VerdictRule, visit_spread: float = 0.0, machine_ratio: float | None = None
) -> float:
    """The band's half-width for a case whose two sides have these statistics: 0.05 means within 5%.

    `visit_spread`: how far the case's visits in one run stray from each other (the larger side's
    middle visit median over its fastest, less 1): drift between runs measured inside a run, so
    the band is at least that wide (up to the cap). `machine_ratio`: the reference kernel's B/A for
    the case's probe; the band is at least as wide as it moved either way (up to the cap)."""
    spread = max(a.rel_iqr, b.rel_iqr)
    machine_shift = change_either_way(machine_ratio) if machine_ratio else 0.0
    return max(rule.band_floor, min(rule.band_cap, max(rule.band_per_spread * spread, visit_spread, machine_shift)))


def change_either_way(ratio: float) -> float:
    """How far a ratio B/A lies from 1, the same for a slowdown and its mirror speed-up: 1.25 and 0.8 are both 0.25."""
    return max(ratio, 1 / ratio) - 1


def band_edges(band: float) -> tuple[float, float]:
    """The ratios B/A at the band's edges: [1 / (1 + band), 1 + band]."""
    return 1 / (1 + band), 1 + band


BandSide = Literal["above", "below", "within", "straddles"]


def band_side(low: float, high: float, band: float, around: float = 1.0) -> BandSide:
    """Where a CI [low, high] of a ratio lies against the band [around / (1 + band), around x (1 + band)]: wholly
    above or below it, wholly within it, or reaching into it and out of it. The one reading of a CI against a band
    that a case's verdict, a probe's verdict and a settled speedup share."""
    lower_edge, upper_edge = (around * edge for edge in band_edges(band))
    if lower_edge <= low and high <= upper_edge:
        return "within"
    if low > upper_edge:
        return "above"
    if high < lower_edge:
        return "below"
    return "straddles"


def log_distance_outside(ratio: float, band: float) -> float:
    """How far (in log units) a ratio lies beyond the band's edge: negative inside the band."""
    return abs(math.log(ratio)) - math.log1p(band)
