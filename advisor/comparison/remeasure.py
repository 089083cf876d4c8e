"""Which cases a new measurement could settle, and what it needs: more samples, a quiet rerun, a timed run.

A comparison cannot measure; it can say where measuring again would pay. An UNCERTAIN case whose
CI straddles its band's edge is decided by a narrower CI, and a CI narrows as 1/sqrt(samples): the
arm of the CI that crosses the edge (h, log scale, z standard errors long) must fit in the room d
between the ratio and the edge with z + 0.84 standard errors to spare, so a rerun that finds the same
ratio decides the case 4 times in 5. The sides need about (h / d)^2 x ((z + 0.84) / z)^2 times the
samples they have. A case blocked by a noisy side or a busy host needs a rerun on a quiet machine
(interleaving rounds of A and B helps too), not more samples of the same run.
"""

from __future__ import annotations

import math
from statistics import NormalDist

from advisor.comparison.band import band_edges, log_distance_outside
from advisor.comparison.models import CaseComparison, Comparison, Remeasure, TimingChange, VerdictRule

POWER = 0.8  # the chance that a rerun of the suggested size decides the case, if the ratio holds


def _straddle_scale(timing: TimingChange) -> float | None:
    """How many times the samples would pull the CI's arms back behind every band edge they cross, or None
    when the CI crosses no edge."""
    log_ratio = math.log(timing.ratio)
    scales = []
    for edge in band_edges(timing.band):
        if not timing.ratio_ci_low < edge < timing.ratio_ci_high:
            continue
        # The arm of the CI that reaches across the edge, and the room the ratio leaves it.
        arm = (
            math.log(timing.ratio_ci_high) - log_ratio
            if edge > timing.ratio
            else log_ratio - math.log(timing.ratio_ci_low)
        )
        room = abs(math.log(edge) - log_ratio)
        scales.append((arm / room) ** 2 if room > 0 else math.inf)
    return max(scales) if scales else None


def _significance_scale(timing: TimingChange, rule: VerdictRule) -> float:
    """How many times the samples would make a U test significant at `rule.alpha`: z grows as sqrt(samples)."""
    z_now = NormalDist().inv_cdf(1 - timing.p_value / 2) if timing.p_value < 1 else 0.0
    return (NormalDist().inv_cdf(1 - rule.alpha / 2) / z_now) ** 2 if z_now > 0 else math.inf


def samples_to_decide(timing: TimingChange, rule: VerdictRule) -> int | None:
    """About how many samples per side would decide an undecided timing; None when it is decided, when it is a
    single pass, or when no rerun within `rule.max_samples` would decide it (the ratio sits on the band's edge)."""
    if timing.single_pass or min(timing.ratio, timing.ratio_ci_low, timing.ratio_ci_high) <= 0:
        return None  # a single pass has the steps its stream has: it is repeated, not sampled longer
    fewest = min(timing.n_a, timing.n_b)
    scale = _straddle_scale(timing)
    if scale is None and log_distance_outside(timing.ratio, timing.band) > 0 and not timing.paired:
        scale = _significance_scale(timing, rule) if timing.p_value >= rule.alpha else None
    if scale is None:
        return rule.min_samples if fewest < rule.min_samples else None
    if not math.isfinite(scale):
        return None
    z_interval = NormalDist().inv_cdf(1 - (1 - rule.confidence) / 2)
    scale *= ((z_interval + NormalDist().inv_cdf(POWER)) / z_interval) ** 2
    needed = max(rule.min_samples, math.ceil(fewest * scale))
    return needed if needed <= rule.max_samples else None


def case_remeasure(case: CaseComparison) -> Remeasure | None:
    """What would settle this case, or None when it is settled or nothing measurable would settle it."""
    timing = case.timing
    if case.verdict == "UNCERTAIN" and timing is not None:
        if case.samples_to_decide is not None:
            return Remeasure(
                case_id=case.key.case_id,
                verdict=case.verdict,
                need="more samples",
                samples_per_side=case.samples_to_decide,
                why=case.reason,
            )
        if timing.single_pass or timing.noisy_a or timing.noisy_b or timing.busy_host_a or timing.busy_host_b:
            return Remeasure(
                case_id=case.key.case_id,
                verdict=case.verdict,
                need="a quiet rerun",
                samples_per_side=None,
                why=case.reason,
            )
        return None
    if case.verdict == "NOT-COMPARABLE" and "not-timed" in (case.status_a, case.status_b):
        return Remeasure(
            case_id=case.key.case_id,
            verdict=case.verdict,
            need="a timed run on both sides",
            samples_per_side=None,
            why=case.reason,
        )
    return None


def cases_to_remeasure(comparison: Comparison) -> list[Remeasure]:
    """The matched cases a new measurement could settle, in the comparison's order."""
    return [request for case in comparison.cases if (request := case_remeasure(case)) is not None]
