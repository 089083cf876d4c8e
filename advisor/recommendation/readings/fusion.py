"""Fusion readings: what torch.compile's fusion did to a chain of small ops, against eager, on one device.

`fusion_launch_ratio`: compiled launches / eager launches per call (the method's inference target is 1/3);
`fusion_compiled_speedup`: eager median / compiled median. Geometric means over the chain cases.
Hardware-specific (not portable): launch counts and speed differ between a CPU and a GPU.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from advisor.recommendation.readings.common import Reading, make_reading
from probes.fusion.analysis import fusion_pairs
from probes.models import ProbeCase


def _geomean(values: Sequence[float]) -> float:
    return math.exp(sum(math.log(value) for value in values) / len(values))


def fusion_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """The launch ratio and the speedup of the compiled chain, each over the pairs that measured it."""
    pairs = fusion_pairs(cases)
    readings = []
    launched = [(pair, pair.launch_ratio) for pair in pairs if pair.launch_ratio is not None and pair.launch_ratio > 0]
    if launched:
        ratio = _geomean([value for _, value in launched])  # type: ignore[misc]
        figure = f"torch.compile {ratio:.2f}x eager's kernel launches per call over {len(launched)} chain case(s)"
        readings.append(make_reading("fusion_launch_ratio", ratio, figure, [case for pair, _ in launched
                                                                             for case in (pair.eager, pair.compiled)]))  # fmt: skip
    timed = [(pair, pair.speedup) for pair in pairs if pair.speedup is not None and pair.speedup > 0]
    if timed:
        speedup = _geomean([value for _, value in timed])  # type: ignore[misc]
        figure = f"the compiled chain runs {speedup:.2f}x eager's speed over {len(timed)} chain case(s)"
        readings.append(make_reading("fusion_compiled_speedup", speedup, figure, [case for pair, _ in timed
                                                                                  for case in (pair.eager, pair.compiled)]))  # fmt: skip
    return readings
