"""What the scaling probe's evidence says: all-reduce bus bandwidth, strong-scaling efficiency, DDP overlap.

Strong scaling keeps the global batch fixed and splits it over N processes: efficiency is
T1 / (N x TN) (1.0 is perfect; the serial T1 runs the model unwrapped), speedup T1 / TN. The reading
`strong_scaling_efficiency` (1 -> the largest world measured) is what the collectives concern's switch
condition checks. Hardware-specific (not portable): a CPU/gloo run says nothing about NCCL or HCCL on the target.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from probes.models import Metric, ProbeCase
from probes.reporting import (
    BarGroup,
    BarPlot,
    ChartSpec,
    LinePlot,
    ProbeReport,
    Reading,
    ReadingSpec,
    Series,
    Table,
    make_reading,
    metric_text,
    timed_cases,
)
from probes.scaling.bandwidth import algorithm_bandwidth, all_reduce_bus_bandwidth
from probes.units import format_bytes, format_seconds

# T1 / (N x TN) at the largest N measured: what the collectives concern's switch condition checks.
STRONG_SCALING_EFFICIENCY = ReadingSpec("strong_scaling_efficiency")


def all_reduce_metrics(message_bytes: int, seconds: float, world: int) -> dict[str, Metric]:
    """Bus bandwidth first (the headline), then algorithm bandwidth, in GB/s (1e9 bytes)."""
    return {
        "bus_gbps": Metric(value=all_reduce_bus_bandwidth(message_bytes, seconds, world) / 1e9, unit="GB/s"),
        "alg_gbps": Metric(value=algorithm_bandwidth(message_bytes, seconds) / 1e9, unit="GB/s"),
    }


def step_metrics(
    *, world: int, seconds: float, serial_seconds: float, global_batch: int, gradient_bytes: int, threads: int
) -> dict[str, Metric]:
    """Efficiency first (the headline), speedup, throughput, gradient bytes all-reduced per step, threads."""
    return {
        "efficiency": Metric(value=serial_seconds / (world * seconds), unit="ratio"),
        "speedup": Metric(value=serial_seconds / seconds, unit="x"),
        "samples_per_s": Metric(value=global_batch / seconds, unit="samples/s"),
        "gradient_bytes": Metric(value=float(gradient_bytes if world > 1 else 0), unit="B"),
        "threads": Metric(value=float(threads), unit="count"),
    }


def overlap_metrics(no_overlap_seconds: float, overlap_seconds: float) -> dict[str, Metric]:
    """How much faster DDP's bucketed all-reduce during backward is than one all-reduce after it."""
    return {"overlap_gain": Metric(value=no_overlap_seconds / overlap_seconds, unit="x")}


@dataclass(frozen=True)
class ScalingPoint:
    """One world size of the strong-scaling curve."""

    world: int
    efficiency: float
    seconds: float
    case_id: str


def strong_scaling_points(cases: Iterable[ProbeCase]) -> list[ScalingPoint]:
    """Measured ddp.step cases with an efficiency, by world size; the serial point (world 1) included."""
    points = [
        ScalingPoint(
            int(case.key.options["world"]), case.metrics["efficiency"].value, case.timing.stats.median, case.key.case_id
        )
        for case in cases
        if case.key.probe == "scaling"
        and case.key.implementation == "ddp.step"
        and case.status == "ok"
        and case.timing is not None
        and "efficiency" in case.metrics
    ]
    return sorted(points, key=lambda point: point.world)


def scaling_lines(cases: Iterable[ProbeCase]) -> list[str]:
    """All-reduce bus bandwidth (largest message and peak), strong-scaling efficiency per world size, overlap gain."""
    listed = [case for case in cases if case.key.probe == "scaling" and case.status == "ok"]
    lines: list[str] = []
    reduces = sorted(
        (case for case in listed if case.key.implementation == "all_reduce" and "bus_gbps" in case.metrics),
        key=lambda case: case.key.shape["bytes"],
    )
    if reduces:
        largest, peak = reduces[-1], max(reduces, key=lambda case: case.metrics["bus_gbps"].value)
        where = f"({largest.key.options['backend']}, {largest.key.options['world']} procs)"
        line = f"all-reduce {format_bytes(largest.key.shape['bytes'])} bus bandwidth {_gbps(largest)} {where}"
        if peak is not largest:
            line += f"; peak {_gbps(peak)} at {format_bytes(peak.key.shape['bytes'])}"
        lines.append(line)
    points = strong_scaling_points(listed)
    serial = next((point for point in points if point.world == 1), None)
    for point in points:
        if serial is not None and point.world > 1:
            lines.append(
                f"strong scaling 1->{point.world}: efficiency {point.efficiency:.2f}"
                f" (step {serial.seconds * 1e3:.1f} ms -> {point.seconds * 1e3:.1f} ms, global batch fixed)"
            )
    for case in listed:
        if case.key.implementation == "ddp.no_overlap" and "overlap_gain" in case.metrics:
            gain = case.metrics["overlap_gain"].value
            lines.append(
                f"DDP overlap at {case.key.options['world']} procs: bucketed all-reduce during backward {gain:.2f}x"
                " the speed of one all-reduce after backward"
            )
    return lines


def _gbps(case: ProbeCase) -> str:
    return f"{case.metrics['bus_gbps'].value:.3g} GB/s"


def scaling_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """strong_scaling_efficiency: T1 / (N x TN) at the largest N measured, citing the serial and the N-process case."""
    points = strong_scaling_points(cases)
    serial = next((point for point in points if point.world == 1), None)
    parallel = [point for point in points if point.world > 1]
    if serial is None or not parallel:
        return []
    widest = parallel[-1]
    by_id = {case.key.case_id: case for case in cases}
    backend = by_id[widest.case_id].key.options.get("backend", "?")
    figure = (
        f"strong scaling 1 -> {widest.world} processes ({backend}): efficiency {widest.efficiency:.2f}"
        f" (step {serial.seconds * 1e3:.1f} ms -> {widest.seconds * 1e3:.1f} ms, global batch fixed)"
    )
    return [
        make_reading(
            STRONG_SCALING_EFFICIENCY, widest.efficiency, figure, [by_id[serial.case_id], by_id[widest.case_id]]
        )
    ]


def scaling_table(cases: Sequence[ProbeCase]) -> Table:
    """All-reduce bus bandwidth per message size, and the data-parallel step per world size."""
    rows = []
    for case in timed_cases(cases):
        world = str(case.key.options.get("world", "-"))
        figure = (
            f"{metric_text(case, 'bus_gbps', '.3g')} GB/s bus"
            if "bus_gbps" in case.metrics
            else f"efficiency {metric_text(case, 'efficiency', '.2f')}"
            if "efficiency" in case.metrics
            else f"overlap gain {metric_text(case, 'overlap_gain', '.2f')}x"
        )
        rows.append(
            (case.key.implementation, world, case.key.shape_text, format_seconds(case.timing.stats.median), figure)  # type: ignore[union-attr]
        )
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
                (float(case.key.shape["bytes"]), case.metrics["bus_gbps"].value)
            )
        elif "efficiency" in case.metrics:
            efficiency.append(BarGroup(f"{world} procs", (case.metrics["efficiency"].value,)))
    charts = []
    if bandwidth:
        series = tuple(Series(name, tuple(points)) for name, points in sorted(bandwidth.items()))
        charts.append(
            ChartSpec(
                "scaling-bandwidth",
                "All-reduce bus bandwidth",
                LinePlot(
                    f"All-reduce bus bandwidth vs message size ({device})",
                    "message size",
                    "bus GB/s (log)",
                    series,
                    x_unit="bytes",
                ),
                "Bus bandwidth as nccl-tests defines it: algorithm bandwidth x 2(n-1)/n.",
            )
        )
    if efficiency:
        charts.append(
            ChartSpec(
                "scaling-efficiency",
                "Strong-scaling efficiency",
                BarPlot(
                    f"Strong-scaling efficiency T1 / (N x TN) ({device})",
                    "efficiency",
                    ("efficiency",),
                    tuple(efficiency),
                    "processes",
                ),
                "The global batch stays fixed; 1.0 is perfect scaling.",
            )
        )
    return charts


REPORT = ProbeReport(
    "scaling",
    order=80,
    findings=scaling_lines,
    table=scaling_table,
    charts=scaling_charts,
    readings=scaling_readings,
    declares=(STRONG_SCALING_EFFICIENCY,),
)
