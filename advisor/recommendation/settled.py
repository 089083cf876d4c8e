"""Whether a run's samples settle a speedup that a decision reads (dtype, layout, kernel).

A point ratio of medians is not a verdict: on a busy or noisy run, bf16 can read 4.18x fp32 one minute and
0.84x the next. A speedup figure that aggregates pairs of cases (bf16 against fp32 per shape, channels-last
against NCHW per convolution) is judged as `advisor compare` judges a case: the bootstrap CI of the geometric
mean of the pairs' median ratios (`comparison.statistics.bootstrap_geometric_mean_speedup`, at the compare
rule's confidence), against the equivalence band of those cases (`comparison.band.equivalence_band`, from
their spread and how far their visits strayed). The CI wholly beyond the band's edge around a threshold is
above or below it; wholly inside the band is the same as the threshold; anything else is unsettled, and the
decision keeps the knowledge base's default and says what would settle it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from advisor.comparison.band import band_side, equivalence_band
from advisor.comparison.models import VerdictRule
from advisor.comparison.statistics import bootstrap_geometric_mean_speedup
from advisor.comparison.visits import judged_visit
from probes.models import Measurement

Side = Literal["above", "below", "same", "unsettled"]
_SETTLED_SIDE: dict[str, Side] = {"above": "above", "below": "below", "within": "same", "straddles": "unsettled"}


class Settlement(BaseModel):
    """The CI of a speedup figure and the band it is judged against."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ratio: float  # the geometric mean of the pairs read on their judged (fastest) visits, as compare reads a case
    low: float
    high: float
    confidence: float
    band: float  # half-width on the log scale, as in comparison.band
    samples: int  # the fewest samples any side of any pair was read on

    def side(self, threshold: float = 1.0) -> Side:
        """Where the figure lies against `threshold`: its CI beyond the band on one side, within it, or neither.
        Against 1x (is one side faster at all?) the band is compare's; a policy threshold such as Triton's parity at
        0.9x already holds its margin, so there the CI alone must clear it."""
        band = self.band if threshold == 1.0 else 0.0
        return _SETTLED_SIDE[band_side(self.low, self.high, band, around=threshold)]

    def interval_text(self) -> str:
        """'0.97x on each case's fastest visit, 90% CI 0.61-1.52x, band +/-6%'."""
        return (
            f"{self.ratio:.2f}x on each case's fastest visit, {self.confidence:.0%} CI {self.low:.2f}-{self.high:.2f}x, "
            f"band +/-{self.band:.0%}"
        )

    def samples_to_settle(self, threshold: float = 1.0) -> int | None:
        """About how many samples per case would narrow the CI enough to settle the ratio against `threshold`, as
        the CI narrows with the square root of the samples; None when the figure sits on the band's edge."""
        half_width = math.log(self.high / self.low) / 2
        distance = abs(math.log(self.ratio / threshold))
        room = abs(math.log1p(self.band if threshold == 1.0 else 0.0) - distance)
        if room < 0.005 or half_width <= 0:
            return None
        return max(self.samples + 1, math.ceil(self.samples * (half_width / room) ** 2))


def settle(pairs: Sequence[tuple[Measurement, Measurement]], rule: VerdictRule | None = None) -> Settlement | None:
    """The settlement of a speedup over (baseline timing, compared timing) pairs, each side read on its judged
    visit as compare reads it; None without pairs."""
    if not pairs:
        return None
    rule = rule or VerdictRule()
    sides, bands = [], []
    for baseline, compared in pairs:
        judged_a, judged_b = judged_visit(baseline, rule.min_samples), judged_visit(compared, rule.min_samples)
        sides.append((judged_a.samples, judged_b.samples))
        bands.append(
            equivalence_band(baseline.stats, compared.stats, rule, visit_spread=max(judged_a.spread, judged_b.spread))
        )
    interval = bootstrap_geometric_mean_speedup(
        sides, resamples=rule.resamples, confidence=rule.confidence, seed=rule.seed
    )
    return Settlement(
        ratio=interval.ratio,
        low=interval.low,
        high=interval.high,
        confidence=interval.confidence,
        band=sum(bands) / len(bands),
        samples=min(len(side) for pair in sides for side in pair),
    )


def unsettled_text(figure: str, settlement: Settlement, probe: str, threshold: float = 1.0) -> str:
    """'not settled by this run: <figure> (<CI>) ...; <what would settle it>'."""
    needed = settlement.samples_to_settle(threshold)
    more = (
        f"about {needed} samples per case (this run read {settlement.samples})"
        if needed is not None
        else "a quiet host (the figure sits on the band's edge)"
    )
    return (
        f"not settled by this run: {figure} ({settlement.interval_text()}, against {threshold:g}x); "
        f"{more} would settle it: a larger `advisor probe {probe} --budget`, on a quiet host"
    )
