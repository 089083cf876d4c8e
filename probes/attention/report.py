"""What the attention probe's evidence says: how time and scratch memory grow with sequence length."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from probes.attention.growth import fit_growth
from probes.attention.readings import attention_readings
from probes.models import ProbeCase
from probes.reporting import ChartSpec, LinePlot, ProbeReport, Series, Table, timed_cases
from probes.units import format_seconds

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
        charts.append(ChartSpec("attention-time", "Attention time against sequence length",
                                LinePlot(f"Attention time vs sequence length ({device}, {masking})", "sequence length",
                                         "median ms (log)", series),
                                "Log-log: a slope of 2 is quadratic growth."))  # fmt: skip
    if memory:
        series = tuple(Series(name, tuple(points)) for name, points in sorted(memory.items()))
        charts.append(ChartSpec("attention-memory", "Attention scratch memory against sequence length",
                                LinePlot(f"Attention scratch memory vs sequence length ({device}, {masking})",
                                         "sequence length", "MiB allocated beyond inputs (log)", series),
                                "Peak memory the call allocates beyond its inputs and output; materialized scores grow as N^2."))  # fmt: skip
    return charts


REPORT = ProbeReport("attention", order=30, findings=attention_findings, table=attention_table, charts=attention_charts,
                     readings=attention_readings)  # fmt: skip
