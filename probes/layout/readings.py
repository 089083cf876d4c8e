"""Layout readings: channels-last (NHWC) against NCHW for convolutions, and what a mismatched layout costs.

`layout_channels_last_speedup`: NCHW time / channels-last time; `layout_mismatch_cost`: extra time of
the mismatched layout over the faster matched one (0.2 = 20% slower). Geometric means over op and dtype.
Hardware-specific (not portable).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from probes.layout.analysis import layout_comparisons
from probes.models import ProbeCase
from probes.reporting import Reading, make_reading
from probes.statistics import geometric_mean


def layout_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """The channels-last speedup and the mismatch cost, citing every case compared."""
    comparisons = layout_comparisons(cases)
    if not comparisons:
        return []
    by_id = {case.key.case_id: case for case in cases}
    cited = [by_id[case_id] for comparison in comparisons for case_id in comparison.case_ids]
    speedup = geometric_mean([item.nhwc_speedup for item in comparisons])
    readings = [replace(make_reading("layout_channels_last_speedup", speedup,
                                     f"channels-last {speedup:.2f}x NCHW's speed (geometric mean over {len(comparisons)} conv cases)",
                                     cited), pairs=tuple(item.pair for item in comparisons))]  # fmt: skip
    costs = [item.mismatch_cost for item in comparisons if item.mismatch_cost is not None]
    if costs:
        cost = geometric_mean([1.0 + value for value in costs]) - 1.0  # a cost is above -1: times are positive
        readings.append(make_reading("layout_mismatch_cost", cost,
                                     f"a mismatched layout costs {cost:.0%} over the faster matched one "
                                     f"(geometric mean over {len(costs)} conv cases)", cited))  # fmt: skip
    return readings
