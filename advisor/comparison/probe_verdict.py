"""The per-probe verdict: a shift shared by many cases of a probe, which no single case can show.

A case's verdict needs its CI of B/A outside a band of 6-20% (band.py): a noisy case's band is wider than the
10% a yearly review exists to catch. A probe's cases move together when the code under them changes (a new
torch, a new BLAS), so the middle of their ratios moves by the change while the cases' own noise averages out.
Per probe:

    ratio = median over its comparable cases of B.median / A.median, each side read on its judged (fastest)
            visit, with a bootstrap CI that resamples every case's samples on both sides;

judged against the probe band (`VerdictRule.probe_band`, 2.5%): SLOWER when the CI lies wholly above
1 + band, FASTER wholly below 1 / (1 + band), SAME wholly inside, UNCERTAIN otherwise. As for a case, a busy
host on either side, or the machine-speed reference kernel having moved the same way beyond the case band's
floor (6%, that kernel's own spread between child starts is about 5%), turns FASTER/SLOWER into UNCERTAIN. A
probe with fewer than MIN_PROBE_CASES comparable cases gets no verdict.

Why the median and 2.5%, measured on three quiet A/A pairs of gemm (17 cases) and attention (36 cases) on this
2-core host (/work/aa1, /work/aa2 of 2026-12-04 and the committed pair of 2026-11-29, records/0001):
- the median of the cases' B/A drifted 0.3%, 0.1%, 1.4%, 0.4%, 1.0% and 2.4% between the runs; the geometric
  mean drifted as far except in the committed attention pair, where three cases that hit a hiccup in one run
  (0.38x, 0.52x, 1.96x) pulled it to 0.947x: 5.3%, wider than a 5% regression;
- at 2.5% A/A gives five SAME and one UNCERTAIN (CI 0.971-0.978x), no FASTER/SLOWER; B made 5% slower is
  SLOWER in five of six probes and 10% slower in six of six. At 2% the committed attention pair reads FASTER;
  at 3% a 5% slowdown is found in four of six.

The ratio is not divided by the reference kernel's move. Measured here (bench/bench_aa.py, two quiet runs of
gemm and attention minutes apart, 2026-12-04): the reference moved 0.953x and 1.055x while those probes' cases
moved 0.999x and 0.993x together. Divided by it, A/A read 1.048x and 0.941x: it would add its error, not take
out the machine's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from advisor.comparison.band import band_side, change_either_way
from advisor.comparison.models import ProbeVerdict, ProbeVerdictName, VerdictRule
from advisor.comparison.statistics import bootstrap_median_speedup
from advisor.comparison.visits import is_timed, judged_visit
from probes.models import ProbeCase

MIN_PROBE_CASES = 5  # fewer comparable cases do not average their noise out


def probe_verdicts(
    pairs: Sequence[tuple[ProbeCase, ProbeCase]], machine: dict[str, float], rule: VerdictRule, busy_host: bool = False
) -> list[ProbeVerdict]:
    """One verdict per probe with at least MIN_PROBE_CASES cases timed in both runs, in probe name order."""
    by_probe: dict[str, list[tuple[list[float], list[float]]]] = defaultdict(list)
    for case_a, case_b in pairs:
        if is_timed(case_a) and is_timed(case_b) and case_a.timing is not None and case_b.timing is not None:
            samples_a = judged_visit(case_a.timing, rule.min_samples).samples
            samples_b = judged_visit(case_b.timing, rule.min_samples).samples
            by_probe[case_a.key.probe].append((samples_b, samples_a))  # "baseline" B over "compared" A: B/A
    verdicts = []
    for probe, sides in sorted(by_probe.items()):
        if len(sides) < MIN_PROBE_CASES:
            continue
        interval = bootstrap_median_speedup(sides, resamples=rule.resamples, confidence=rule.confidence, seed=rule.seed)
        machine_ratio = machine.get(probe)
        verdict = _verdict(interval.low, interval.high, rule.probe_band)
        if verdict in ("FASTER", "SLOWER") and _blocked(verdict, machine_ratio, rule, busy_host):
            verdict = "UNCERTAIN"
        verdicts.append(
            ProbeVerdict(
                probe=probe,
                cases=len(sides),
                ratio=interval.ratio,
                ci_low=interval.low,
                ci_high=interval.high,
                machine_ratio=machine_ratio,
                band=rule.probe_band,
                verdict=verdict,
            )
        )
    return verdicts


_VERDICT_OF_SIDE: dict[str, ProbeVerdictName] = {
    "above": "SLOWER",
    "below": "FASTER",
    "within": "SAME",
    "straddles": "UNCERTAIN",
}


def _verdict(low: float, high: float, band: float) -> ProbeVerdictName:
    return _VERDICT_OF_SIDE[band_side(low, high, band)]


def _blocked(verdict: ProbeVerdictName, machine_ratio: float | None, rule: VerdictRule, busy_host: bool) -> bool:
    """A change the host's load, or the machine's own move the same way, could explain."""
    if busy_host and rule.busy_host_blocks_change:
        return True
    if machine_ratio is None or not rule.machine_shift_blocks_change:
        return False
    same_way = (machine_ratio > 1) == (verdict == "SLOWER")
    return same_way and change_either_way(machine_ratio) > rule.band_floor
