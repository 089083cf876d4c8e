"""The charts of one Evidence file, drawn as SVG from the chart specs each probe declares.

A probe's `report.py` (`ProbeReport.charts`) picks its timed cases and returns zero or more
`ChartSpec`s (plain data); this module draws them. A probe that is absent or has nothing timed
draws nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.site.svg import bar_chart, line_chart, scatter_chart, stacked_bar_chart
from probes.models import Evidence
from probes.reporting import BarPlot, ChartSpec, LabelledPoint, LinePlot, Plot, ScatterPlot, cases_by_probe, probe_reports
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
        return draw_bars(plot.title, plot.y_label, plot.series_names, plot.groups, plot.x_label, y_max=plot.y_max)
    if isinstance(plot, LinePlot):
        x_format = (lambda size: format_bytes(int(size))) if plot.x_unit == "bytes" else None
        return line_chart(plot.title, plot.x_label, plot.y_label, plot.series, x_format=x_format)
    if isinstance(plot, ScatterPlot):
        return scatter_chart(plot.title, plot.x_label, plot.y_label, plot.points, reference_y=plot.reference_y)
    raise TypeError(f"no drawing for {type(plot).__name__}")


def render_chart(spec: ChartSpec) -> Chart:
    """A probe's chart spec drawn."""
    return Chart(spec.name, spec.title, draw(spec.plot), spec.caption)


def reference_chart(evidence: Evidence) -> Chart | None:
    """The GPU's own cases against NVIDIA's reference at the same points: measured/reference per case, with the
    reference drawn as the dashed line at 1.0 (None where the device has no reference or no case matches)."""
    from advisor.knowledge.devices import detect_device
    from advisor.knowledge.loader import load_knowledge_base
    from advisor.reference.check import LOW_RATIO, reference_matches
    from advisor.reference.tables import reference_for

    family = evidence.environment.hardware_family
    device = detect_device(evidence.environment, load_knowledge_base(), family) if family is not None else None
    reference = reference_for(device)
    matches = reference_matches(evidence.cases, reference) if reference is not None else []
    if reference is None or not matches:
        return None
    points = tuple(LabelledPoint(f"{m.operator} {m.case_id}", m.reference_ms, m.ratio) for m in matches)
    plot = ScatterPlot("Measured against NVIDIA's reference", "reference time (ms)", "measured / reference speed",
                       points, reference_y=1.0)
    caption = (f"Each case at a point of NVIDIA's tables for {reference.device_id}; the dashed line is the reference "
               f"({next(m.label for m in matches)}); GEMM or all-reduce below {LOW_RATIO}x is named in the record.")
    return Chart("reference-check", plot.title, draw(plot), caption)


def evidence_charts(evidence: Evidence) -> list[Chart]:
    """Every chart this evidence can draw, in the probes' report order, then the reference check where one applies."""
    grouped = cases_by_probe(evidence.cases)
    device = evidence.device_name()
    charts: list[Chart] = []
    for report in probe_reports():
        if report.charts is not None and grouped.get(report.probe):
            charts.extend(render_chart(spec) for spec in report.charts(grouped[report.probe], device))
    reference = reference_chart(evidence)
    return charts + ([reference] if reference is not None else [])
