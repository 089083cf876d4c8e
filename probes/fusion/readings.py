"""Fusion readings: what torch.compile's fusion did to a chain of small ops, against eager, on one device.

`fusion_launch_ratio`: compiled launches / eager launches per call (the method's inference target is 1/3);
`fusion_compiled_speedup`: eager median / compiled median. Geometric means over the chain cases.
Hardware-specific (not portable): launch counts and speed differ between a CPU and a GPU.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from probes.fusion.analysis import FusionPair, fusion_pairs
from probes.models import ProbeCase
from probes.reporting import Reading, make_reading
from probes.statistics import geometric_mean


def _pairs_reading(name: str, measured: Sequence[tuple[FusionPair, float]], describe: Callable[[float, int], str]) -> Reading:
    """One reading: the geometric mean over the pairs, citing both cases of each pair."""
    value = geometric_mean([ratio for _, ratio in measured])
    cases = [case for pair, _ in measured for case in (pair.eager, pair.compiled)]
    return make_reading(name, value, describe(value, len(measured)), cases)


def fusion_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """The launch ratio and the speedup of the compiled chain, each over the pairs that measured it."""
    pairs = fusion_pairs(cases)
    launched = [(pair, ratio) for pair in pairs if (ratio := pair.launch_ratio) is not None and ratio > 0]
    timed = [(pair, speedup) for pair in pairs if (speedup := pair.speedup) is not None and speedup > 0]
    readings = []
    if launched:
        readings.append(_pairs_reading(
            "fusion_launch_ratio", launched,
            lambda ratio, count: f"torch.compile {ratio:.2f}x eager's kernel launches per call over {count} chain case(s)",
        ))  # fmt: skip
    if timed:
        readings.append(_pairs_reading(
            "fusion_compiled_speedup", timed,
            lambda speedup, count: f"the compiled chain runs {speedup:.2f}x eager's speed over {count} chain case(s)",
        ))  # fmt: skip
    return readings
