"""What the layout probe's evidence says: channels-last against NCHW, and what a layout mismatch costs.

`layout_channels_last_speedup`: NCHW time / channels-last time; `layout_mismatch_cost`: extra time of
the mismatched layout over the faster matched one (0.2 = 20% slower). Geometric means over op and dtype.
Hardware-specific (not portable).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from probes.models import ProbeCase
from probes.reporting import (
    BarGroup,
    BarPlot,
    ChartSpec,
    ProbeReport,
    Reading,
    ReadingSpec,
    Table,
    make_reading,
    timed_cases,
)
from probes.statistics import geometric_mean
from probes.units import format_seconds

LAYOUT_CHANNELS_LAST_SPEEDUP = ReadingSpec("layout_channels_last_speedup")
LAYOUT_MISMATCH_COST = ReadingSpec("layout_mismatch_cost")

OP_NAMES = {"conv": "conv", "block": "conv block"}


@dataclass(frozen=True)
class LayoutComparison:
    """One (op, dtype, shape): median seconds per layout and the ratios a finding states."""

    op: str
    dtype: str
    shape: str
    nchw_s: float
    nhwc_s: float
    mismatch_s: float | None
    case_ids: tuple[str, ...]
    noisy: bool = False  # some timing behind it has IQR/median above the noise threshold
    pair: tuple[str, str] = ("", "")  # (NCHW case id, channels-last case id)

    @property
    def nhwc_speedup(self) -> float:
        """NCHW time / channels-last time: above 1 when channels-last is faster."""
        return self.nchw_s / self.nhwc_s

    @property
    def mismatch_cost(self) -> float | None:
        """Extra time of the mismatched layout over the faster matched one (0.18: 18% slower)."""
        return None if self.mismatch_s is None else self.mismatch_s / min(self.nchw_s, self.nhwc_s) - 1.0

    @property
    def conversion_share(self) -> float | None:
        """Share of the mismatched call spent beyond the faster matched layout: the hidden conversions."""
        return None if self.mismatch_s is None else max(0.0, 1.0 - min(self.nchw_s, self.nhwc_s) / self.mismatch_s)


def layout_comparisons(cases: Sequence[ProbeCase]) -> list[LayoutComparison]:
    """One comparison per (op, dtype, shape) whose NCHW and channels-last cases were both timed."""
    medians: dict[tuple[str, str, str], dict[str, tuple[float, str, bool]]] = defaultdict(dict)
    for case in cases:
        if case.status == "ok" and case.timing is not None and case.timing.stats.median > 0:
            group = (str(case.key.options.get("op")), case.key.dtype, case.key.shape_text)
            medians[group][case.key.layout] = (case.timing.stats.median, case.key.case_id, case.timing.stats.noisy)
    comparisons = []
    for (op, dtype, shape), layouts in sorted(medians.items()):
        if "nchw" in layouts and "nhwc" in layouts:
            mismatch = layouts.get("mismatch")
            comparisons.append(
                LayoutComparison(
                    op=op,
                    dtype=dtype,
                    shape=shape,
                    nchw_s=layouts["nchw"][0],
                    nhwc_s=layouts["nhwc"][0],
                    mismatch_s=mismatch[0] if mismatch else None,
                    case_ids=tuple(sorted(case_id for _, case_id, _ in layouts.values())),
                    noisy=any(noisy for _, _, noisy in layouts.values()),
                    pair=(layouts["nchw"][1], layouts["nhwc"][1]),
                )
            )
    return comparisons


def comparison_line(comparison: LayoutComparison) -> str:
    """'channels-last 1.30x faster than NCHW for conv block bf16 (4x32x28x28); mismatch costs 18%'."""
    speedup = comparison.nhwc_speedup
    verdict = f"{speedup:.2f}x faster than" if speedup >= 1 else f"{1 / speedup:.2f}x SLOWER than"
    text = f"channels-last {verdict} NCHW for {OP_NAMES.get(comparison.op, comparison.op)} {comparison.dtype}"
    text += f" ({comparison.shape})"
    cost = comparison.mismatch_cost
    if cost is not None:
        text += f"; mismatch costs {cost:.0%} (conversions {comparison.conversion_share:.0%} of the mismatched call)"
    return text + (" [noisy timings]" if comparison.noisy else "")


def layout_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """The channels-last speedup and the mismatch cost, citing every case compared."""
    comparisons = layout_comparisons(cases)
    if not comparisons:
        return []
    by_id = {case.key.case_id: case for case in cases}
    cited = [by_id[case_id] for comparison in comparisons for case_id in comparison.case_ids]
    speedup = geometric_mean([item.nhwc_speedup for item in comparisons])
    readings = [
        replace(
            make_reading(
                LAYOUT_CHANNELS_LAST_SPEEDUP,
                speedup,
                f"channels-last {speedup:.2f}x NCHW's speed (geometric mean over {len(comparisons)} conv cases)",
                cited,
            ),
            pairs=tuple(item.pair for item in comparisons),
        )
    ]
    costs = [item.mismatch_cost for item in comparisons if item.mismatch_cost is not None]
    if costs:
        cost = geometric_mean([1.0 + value for value in costs]) - 1.0  # a cost is above -1: times are positive
        readings.append(
            make_reading(
                LAYOUT_MISMATCH_COST,
                cost,
                f"a mismatched layout costs {cost:.0%} over the faster matched one "
                f"(geometric mean over {len(costs)} conv cases)",
                cited,
            )
        )
    return readings


LAYOUTS = ("nchw", "nhwc", "mismatch")


def layout_findings(cases: Sequence[ProbeCase]) -> list[str]:
    """Per (op, dtype): channels-last against NCHW, and what a layout mismatch costs."""
    return [comparison_line(comparison) for comparison in layout_comparisons(cases)]


def layout_table(cases: Sequence[ProbeCase]) -> Table:
    """Median time of each op and dtype in NCHW, channels-last (NHWC) and mismatched layouts."""
    cells: dict[tuple[str, str, str], dict[str, str]] = defaultdict(dict)
    for case in timed_cases(cases):
        group = (str(case.key.options.get("op", case.key.implementation)), case.key.dtype, case.key.shape_text)
        cells[group][case.key.layout] = format_seconds(case.timing.stats.median)  # type: ignore[union-attr]
    rows = [(*group, *(by.get(layout, "-") for layout in LAYOUTS)) for group, by in sorted(cells.items())]
    header = ("op", "dtype", "shape", "NCHW", "channels-last", "mismatched")
    return Table("Layout: NCHW vs channels-last", header, rows)


def layout_charts(cases: Sequence[ProbeCase], device: str) -> list[ChartSpec]:
    """NCHW, channels-last and mismatched median time per op and dtype."""
    cells: dict[str, dict[str, float]] = defaultdict(dict)
    for case in timed_cases(cases):
        cells[f"{case.key.options.get('op', case.key.implementation)} {case.key.dtype}"][case.key.layout] = (
            case.timing.stats.median * 1e6  # type: ignore[union-attr]
        )
    if not cells:
        return []
    bars = tuple(BarGroup(label, tuple(by.get(layout) for layout in LAYOUTS)) for label, by in sorted(cells.items()))
    return [
        ChartSpec(
            "layout-time",
            "Layout: NCHW against channels-last",
            BarPlot(
                f"Convolution time by memory layout ({device})",
                "median us",
                ("NCHW", "channels-last", "mismatched"),
                bars,
                "op and dtype",
            ),
            "Mismatched: channels-last weights with NCHW activations, or conversions around the block; lower is better.",
        )
    ]


REPORT = ProbeReport(
    "layout",
    order=60,
    findings=layout_findings,
    table=layout_table,
    charts=layout_charts,
    readings=layout_readings,
    declares=(LAYOUT_CHANNELS_LAST_SPEEDUP, LAYOUT_MISMATCH_COST),
)
