"""What the layout probe's evidence says: channels-last against NCHW, and what a layout mismatch costs."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from probes.layout.analysis import comparison_line, layout_comparisons
from probes.layout.readings import layout_readings
from probes.models import ProbeCase
from probes.reporting import BarGroup, BarPlot, ChartSpec, ProbeReport, Table, timed_cases
from probes.units import format_seconds

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
        cells[f"{case.key.options.get('op', case.key.implementation)} {case.key.dtype}"][case.key.layout] = case.timing.stats.median * 1e6  # type: ignore[union-attr]
    if not cells:
        return []
    bars = tuple(BarGroup(label, tuple(by.get(layout) for layout in LAYOUTS)) for label, by in sorted(cells.items()))
    return [ChartSpec("layout-time", "Layout: NCHW against channels-last",
                      BarPlot(f"Convolution time by memory layout ({device})", "median us", ("NCHW", "channels-last", "mismatched"),
                              bars, "op and dtype"),
                      "Mismatched: channels-last weights with NCHW activations, or conversions around the block; lower is better.")]  # fmt: skip


REPORT = ProbeReport("layout", order=60, findings=layout_findings, table=layout_table, charts=layout_charts,
                     readings=layout_readings)  # fmt: skip
