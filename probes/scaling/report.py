"""What the scaling probe's evidence says: all-reduce bus bandwidth, strong-scaling efficiency, DDP overlap."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from probes.models import ProbeCase
from probes.reporting import BarGroup, BarPlot, ChartSpec, LinePlot, ProbeReport, Series, Table, metric_text, timed_cases
from probes.scaling.analysis import scaling_lines
from probes.scaling.readings import scaling_readings
from probes.units import format_seconds


def scaling_table(cases: Sequence[ProbeCase]) -> Table:
    """All-reduce bus bandwidth per message size, and the data-parallel step per world size."""
    rows = []
    for case in timed_cases(cases):
        world = str(case.key.options.get("world", "-"))
        figure = (f"{metric_text(case, 'bus_gbps', '.3g')} GB/s bus" if "bus_gbps" in case.metrics
                  else f"efficiency {metric_text(case, 'efficiency', '.2f')}" if "efficiency" in case.metrics
                  else f"overlap gain {metric_text(case, 'overlap_gain', '.2f')}x")  # fmt: skip
        rows.append((case.key.implementation, world, case.key.shape_text, format_seconds(case.timing.stats.median), figure))  # type: ignore[union-attr]
    header = ("measurement", "processes", "size", "median", "figure")
    return Table("Multi-device scaling", header, rows)


def scaling_charts(cases: Sequence[ProbeCase], device: str) -> list[ChartSpec]:
    """All-reduce bus bandwidth against message size, and strong-scaling efficiency per world size."""
    bandwidth: dict[str, list[tuple[float, float]]] = defaultdict(list)
    efficiency = []
    for case in timed_cases(cases):
        world = case.key.options.get("world", "?")
        if "bus_gbps" in case.metrics and "bytes" in case.key.shape:
            bandwidth[f"{case.key.options.get('backend', '')} {world} procs".strip()].append(
                (float(case.key.shape["bytes"]), case.metrics["bus_gbps"].value))
        elif "efficiency" in case.metrics:
            efficiency.append(BarGroup(f"{world} procs", (case.metrics["efficiency"].value,)))
    charts = []
    if bandwidth:
        series = tuple(Series(name, tuple(points)) for name, points in sorted(bandwidth.items()))
        charts.append(ChartSpec("scaling-bandwidth", "All-reduce bus bandwidth",
                                LinePlot(f"All-reduce bus bandwidth vs message size ({device})", "message size", "bus GB/s (log)",
                                         series, x_unit="bytes"),
                                "Bus bandwidth as nccl-tests defines it: algorithm bandwidth x 2(n-1)/n."))  # fmt: skip
    if efficiency:
        charts.append(ChartSpec("scaling-efficiency", "Strong-scaling efficiency",
                                BarPlot(f"Strong-scaling efficiency T1 / (N x TN) ({device})", "efficiency", ("efficiency",),
                                        tuple(efficiency), "processes"),
                                "The global batch stays fixed; 1.0 is perfect scaling."))  # fmt: skip
    return charts


REPORT = ProbeReport("scaling", order=80, findings=scaling_lines, table=scaling_table, charts=scaling_charts,
                     readings=scaling_readings)  # fmt: skip
