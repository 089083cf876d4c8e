"""The charts of one Evidence file, drawn as SVG from the chart specs each probe declares.

A probe's `report.py` (`ProbeReport.charts`) picks its timed cases and returns zero or more
`ChartSpec`s (plain data); this module draws them. A probe that is absent or has nothing timed
draws nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.site.svg import bar_chart, line_chart, scatter_chart, stacked_bar_chart
from probes.models import Evidence
from probes.reporting import BarPlot, ChartSpec, LinePlot, Plot, ScatterPlot, cases_by_probe, probe_reports
from probes.units import format_bytes


@dataclass(frozen=True)
class Chart:
    """One SVG chart: a file-name part, its title, the SVG text and a one-line caption."""

    name: str
    title: str
    svg: str
    caption: str


def draw(plot: Plot) -> str:
    """The SVG text of one plot."""
    if isinstance(plot, BarPlot):
        draw_bars = stacked_bar_chart if plot.stacked else bar_chart
        return draw_bars(plot.title, plot.y_label, plot.series_names, plot.groups, plot.x_label)
    if isinstance(plot, LinePlot):
        x_format = (lambda size: format_bytes(int(size))) if plot.x_unit == "bytes" else None
        return line_chart(plot.title, plot.x_label, plot.y_label, plot.series, x_format=x_format)
    if isinstance(plot, ScatterPlot):
        return scatter_chart(plot.title, plot.x_label, plot.y_label, plot.points, reference_y=plot.reference_y)
    raise TypeError(f"no drawing for {type(plot).__name__}")


def render_chart(spec: ChartSpec) -> Chart:
    """A probe's chart spec drawn."""
    return Chart(spec.name, spec.title, draw(spec.plot), spec.caption)


def evidence_charts(evidence: Evidence) -> list[Chart]:
    """Every chart this evidence can draw, in the probes' report order."""
    grouped = cases_by_probe(evidence.cases)
    device = evidence.device_name()
    charts: list[Chart] = []
    for report in probe_reports():
        if report.charts is not None and grouped.get(report.probe):
            charts.extend(render_chart(spec) for spec in report.charts(grouped[report.probe], device))
    return charts
