"""What the attention probe's evidence says: how time and scratch memory grow with sequence length.

Growth is the slope of log(cost) against log(length): near 2 is the O(N^2) of materialized attention
scores, near 1 the O(N) of flash-style kernels that never hold the N x N matrix (method.md,
FlashAttention). The readings compare naive attention's scratch-memory growth with the best fused kernel's.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

from probes.models import ProbeCase
from probes.reporting import (
    ChartSpec,
    LinePlot,
    ProbeReport,
    Reading,
    ReadingFamily,
    ReadingSpec,
    Series,
    Table,
    make_reading,
    timed_cases,
)
from probes.units import format_seconds


def fit_growth(points: list[tuple[int, float]]) -> float:
    """Least-squares slope of log(value) on log(length) over (length, value) points.

    Needs at least two distinct lengths, and every length and value above zero (logarithms).
    """
    if len(points) < 2:
        raise ValueError(f"fit_growth needs at least two points, got {len(points)}")
    bad = [point for point in points if not (point[0] > 0 and point[1] > 0 and math.isfinite(point[1]))]
    if bad:
        raise ValueError(f"fit_growth needs positive lengths and finite positive values, got {bad}")
    xs = [math.log(length) for length, _ in points]
    ys = [math.log(value) for _, value in points]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread_x = sum((x - mean_x) ** 2 for x in xs)
    if spread_x == 0:
        raise ValueError("fit_growth needs at least two distinct lengths")
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread_x


# How an implementation's scratch memory grows with sequence length (sdpa_flash_attention_memory_growth ...): the
# algorithm sets it, not the hardware, so another family's measurement may stand in.
ATTENTION_MEMORY_GROWTH = ReadingFamily(suffix="_attention_memory_growth", portable=True)
FUSED_ATTENTION_MEMORY_GROWTH = ATTENTION_MEMORY_GROWTH.named("fused")  # the flattest fused kernel's

FUSED_ATTENTION = ("sdpa.flash", "sdpa.efficient", "sdpa.cudnn", "triton")


def memory_growth_by_implementation(cases: Sequence[ProbeCase]) -> dict[str, tuple[float, list[ProbeCase]]]:
    """Implementation -> its steepest log-log slope of attn_extra_bytes on seq over (dtype, causal) groups."""
    points: dict[tuple[str, str, str], list[tuple[ProbeCase, int, float]]] = defaultdict(list)
    for case in cases:
        extra = case.metrics.get("attn_extra_bytes")
        if extra is not None and extra.value > 0 and "seq" in case.key.shape:
            group = (case.key.implementation, case.key.dtype, str(case.key.options.get("causal")))
            points[group].append((case, case.key.shape["seq"], extra.value))
    steepest: dict[str, tuple[float, list[ProbeCase]]] = {}
    for (implementation, _, _), measured in sorted(points.items()):
        if len({length for _, length, _ in measured}) < 2:
            continue
        slope = fit_growth([(length, value) for _, length, value in measured])
        if implementation not in steepest or slope > steepest[implementation][0]:
            steepest[implementation] = (slope, [case for case, _, _ in measured])
    return steepest


def memory_growth_reading(implementation: str) -> ReadingSpec:
    """'sdpa.flash' -> sdpa_flash_attention_memory_growth."""
    return ATTENTION_MEMORY_GROWTH.named(implementation.replace(".", "_"))


def attention_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """<implementation>_attention_memory_growth for each, and fused_attention_memory_growth (the flattest fused)."""
    steepest = memory_growth_by_implementation(cases)
    readings = []
    for implementation, (slope, used) in sorted(steepest.items()):
        figure = f"{implementation} attention memory ~N^{slope:.2f}"
        readings.append(make_reading(memory_growth_reading(implementation), slope, figure, used))
    fused = sorted((steepest[name][0], name) for name in FUSED_ATTENTION if name in steepest)
    if fused:
        slope, name = fused[0]
        figure = f"{name} attention memory ~N^{slope:.2f} (the flattest fused kernel)"
        readings.append(make_reading(FUSED_ATTENTION_MEMORY_GROWTH, slope, figure, steepest[name][1]))
    return readings


MIB = 1024.0**2


def attention_findings(cases: Sequence[ProbeCase]) -> list[str]:
    """Log-log growth of scratch memory and time with sequence length, per implementation and dtype."""
    memory: dict[tuple[str, str, object], list[tuple[int, float]]] = defaultdict(list)
    timing: dict[tuple[str, str, object], list[tuple[int, float]]] = defaultdict(list)
    for case in cases:
        if "seq" not in case.key.shape:  # a hand-made file's attention case without a length: nothing to fit
            continue
        group: tuple[str, str, object] = (case.key.implementation, case.key.dtype, case.key.options.get("causal"))
        extra = case.metrics.get("attn_extra_bytes")
        if extra is not None and extra.value > 0:
            memory[group].append((case.key.shape["seq"], extra.value))
        if case.status == "ok" and case.timing is not None:
            timing[group].append((case.key.shape["seq"], case.timing.stats.median))
    lines = []
    for group in sorted(set(memory) | set(timing), key=str):
        implementation, dtype, causal = group
        parts = []
        for label, points in (("scratch memory", memory.get(group, [])), ("time", timing.get(group, []))):
            if len({length for length, _ in points}) >= 2:
                parts.append(f"{label} ~ N^{fit_growth(points):.2f}")
        if parts:
            lines.append(f"{implementation} {dtype} causal={causal}: {', '.join(parts)}")
    return lines


def attention_table(cases: Sequence[ProbeCase]) -> Table:
    """Median time and scratch memory per sequence length, one row per implementation, dtype and masking."""
    cells: dict[tuple[str, str, str], dict[int, str]] = defaultdict(dict)
    lengths: set[int] = set()
    for case in timed_cases(cases):
        if "seq" not in case.key.shape or case.timing is None:
            continue
        seq = case.key.shape["seq"]
        lengths.add(seq)
        extra = case.metrics.get("attn_extra_bytes")
        memory = f", {extra.value / MIB:.1f} MiB" if extra is not None else ""
        group = (case.key.implementation, case.key.dtype, str(case.key.options.get("causal", "-")).lower())
        cells[group][seq] = format_seconds(case.timing.stats.median) + memory
    ordered = sorted(lengths)
    rows = [(*group, *(by_seq.get(seq, "-") for seq in ordered)) for group, by_seq in sorted(cells.items())]
    header = ("implementation", "dtype", "causal", *(f"seq {seq}" for seq in ordered))
    return Table("Attention: time, scratch memory", header, rows)


def attention_charts(cases: Sequence[ProbeCase], device: str) -> list[ChartSpec]:
    """Time and scratch memory against sequence length, one line per implementation and dtype (log-log)."""
    timed = [case for case in timed_cases(cases) if "seq" in case.key.shape]
    unmasked = [case for case in timed if not case.key.options.get("causal")]
    times: dict[str, list[tuple[float, float]]] = defaultdict(list)
    memory: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for case in unmasked or timed:
        name = f"{case.key.implementation} {case.key.dtype}"
        seq = float(case.key.shape["seq"])
        times[name].append((seq, case.timing.stats.median * 1e3))  # type: ignore[union-attr]
        extra = case.metrics.get("attn_extra_bytes")
        if extra is not None and extra.value > 0:
            memory[name].append((seq, extra.value / MIB))
    masking = "no mask" if unmasked else "causal"
    charts = []
    if times:
        series = tuple(Series(name, tuple(points)) for name, points in sorted(times.items()))
        charts.append(
            ChartSpec(
                "attention-time",
                "Attention time against sequence length",
                LinePlot(
                    f"Attention time vs sequence length ({device}, {masking})",
                    "sequence length",
                    "median ms (log)",
                    series,
                ),
                "Log-log: a slope of 2 is quadratic growth.",
            )
        )
    if memory:
        series = tuple(Series(name, tuple(points)) for name, points in sorted(memory.items()))
        charts.append(
            ChartSpec(
                "attention-memory",
                "Attention scratch memory against sequence length",
                LinePlot(
                    f"Attention scratch memory vs sequence length ({device}, {masking})",
                    "sequence length",
                    "MiB allocated beyond inputs (log)",
                    series,
                ),
                "Peak memory the call allocates beyond its inputs and output; materialized scores grow as N^2.",
            )
        )
    return charts


REPORT = ProbeReport(
    "attention",
    order=30,
    findings=attention_findings,
    table=attention_table,
    charts=attention_charts,
    readings=attention_readings,
    declares=(ATTENTION_MEMORY_GROWTH,),
)
