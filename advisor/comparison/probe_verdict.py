"""The per-probe verdict: a shift shared by many cases of a probe, which no single case can show.

A case's verdict needs its CI of B/A outside a band of 6-20% (band.py): wider than the 10% a yearly review
exists to catch. A probe's cases move together when the code under them changes (a new torch, a new BLAS),
so their geometric mean moves by the change while the cases' own noise averages out. Per probe:

    ratio = geometric mean over its comparable cases of B.median / A.median, each side read on its judged
            (fastest) visit, with a bootstrap CI (every case's samples resampled on both sides), divided by the
            machine-speed reference kernel's B/A for that probe (machine.py: same torch only), which says how
            much the machine itself moved while the probe ran;

judged against a band of PROBE_BAND when that normalisation was possible, else the case band floor: SLOWER
when the CI lies wholly above 1 + band, FASTER wholly below 1 / (1 + band), SAME wholly inside, UNCERTAIN
otherwise; a busy host on either side turns FASTER/SLOWER into UNCERTAIN, as it does for a case. A probe with
fewer than MIN_PROBE_CASES comparable cases gets no verdict.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from advisor.comparison.band import band_edges
from advisor.comparison.models import ProbeVerdict, ProbeVerdictName, VerdictRule
from advisor.comparison.statistics import bootstrap_geometric_mean_speedup
from advisor.comparison.visits import judged_visit
from probes.models import ProbeCase

MIN_PROBE_CASES = 5  # fewer comparable cases do not average their noise out
# The drift of a probe's geometric mean between two runs once the reference kernel's move is taken out.
# Measured on this project's 2-core host: see bench/bench_aa.py (the per-probe A/A figures in the issue notes).
PROBE_BAND = 0.03


def probe_verdicts(
    pairs: Sequence[tuple[ProbeCase, ProbeCase]], machine: dict[str, float], rule: VerdictRule, busy_host: bool = False
) -> list[ProbeVerdict]:
    """One verdict per probe with at least MIN_PROBE_CASES cases timed in both runs, in probe name order."""
    by_probe: dict[str, list[tuple[list[float], list[float]]]] = defaultdict(list)
    for case_a, case_b in pairs:
        if _timed(case_a) and _timed(case_b) and case_a.timing is not None and case_b.timing is not None:
            samples_a = judged_visit(case_a.timing, rule.min_samples).samples
            samples_b = judged_visit(case_b.timing, rule.min_samples).samples
            by_probe[case_a.key.probe].append((samples_b, samples_a))  # "baseline" B over "compared" A: B/A
    verdicts = []
    for probe, sides in sorted(by_probe.items()):
        if len(sides) < MIN_PROBE_CASES:
            continue
        interval = bootstrap_geometric_mean_speedup(sides, resamples=rule.resamples, confidence=rule.confidence,
                                                    seed=rule.seed)  # fmt: skip
        machine_ratio = machine.get(probe)
        scale = machine_ratio or 1.0
        band = PROBE_BAND if machine_ratio else rule.band_floor
        ratio, low, high = interval.ratio / scale, interval.low / scale, interval.high / scale
        verdicts.append(ProbeVerdict(probe=probe, cases=len(sides), ratio=ratio, ci_low=low, ci_high=high,
                                     machine_ratio=machine_ratio, band=band,
                                     verdict=_verdict(low, high, band, busy_host)))  # fmt: skip
    return verdicts


def _timed(case: ProbeCase) -> bool:
    return case.status == "ok" and case.timing is not None and bool(case.timing.samples)


def _verdict(low: float, high: float, band: float, busy_host: bool) -> ProbeVerdictName:
    lower_edge, upper_edge = band_edges(band)
    if low >= lower_edge and high <= upper_edge:
        return "SAME"
    if low > upper_edge or high < lower_edge:
        return "UNCERTAIN" if busy_host else ("SLOWER" if low > upper_edge else "FASTER")
    return "UNCERTAIN"
