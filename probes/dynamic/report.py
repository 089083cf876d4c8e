"""What the dynamic-shapes probe's evidence says: each strategy's total time, recompilations and padding."""

from __future__ import annotations

from collections.abc import Sequence

from probes.dynamic.readings import dynamic_readings
from probes.models import ProbeCase
from probes.reporting import BarGroup, BarPlot, ChartSpec, ProbeReport, Table, metric_text


def dynamic_findings(cases: Sequence[ProbeCase]) -> list[str]:
    """Per strategy: total time with compilation, recompilations, compile time and padding waste."""
    lines = []
    for case in cases:
        metrics = case.metrics
        if "total_s" not in metrics:
            continue
        parts = [f"total {metrics['total_s'].value:.2f} s"]
        for name, label, unit in (
            ("recompiles", "recompiles", ""),
            ("compile_s", "compile", " s"),
            ("padding_waste_pct", "padding waste", "%"),
        ):
            if name in metrics and metrics[name].value:
                parts.append(f"{label} {metrics[name].value:.3g}{unit}")
        if metrics.get("recompile_limit_hit") and metrics["recompile_limit_hit"].value:
            parts.append("hit the recompile limit (fell back to eager)")
        lines.append(f"{case.key.implementation}: {', '.join(parts)}")
    return lines


def dynamic_table(cases: Sequence[ProbeCase]) -> Table:
    """The request stream played by each strategy: total time, recompilations, padding."""
    rows = [
        (case.key.implementation, metric_text(case, "total_s", ".3g"), metric_text(case, "compiles", ".0f"),
         metric_text(case, "recompiles_per_100_requests", ".1f"), metric_text(case, "padding_waste_pct", ".1f"))
        for case in cases
        if case.status == "ok"
    ]  # fmt: skip
    header = ("strategy", "total s", "compiles", "recompiles / 100 requests", "padding waste %")
    return Table("Dynamic shapes", header, rows)


def dynamic_charts(cases: Sequence[ProbeCase], device: str) -> list[ChartSpec]:
    """Request latency percentiles and compile cost per strategy over the same request stream."""
    timed = [case for case in cases if case.status == "ok" and "latency_p50_s" in case.metrics]
    if not timed:
        return []
    percentiles = ("latency_p50_s", "latency_p90_s", "latency_p99_s")
    latency = tuple(BarGroup(case.key.implementation, tuple(case.metrics[name].value * 1e3 if name in case.metrics else None
                                                            for name in percentiles)) for case in timed)  # fmt: skip
    cost = tuple(BarGroup(case.key.implementation, tuple(case.metrics[name].value if name in case.metrics else None
                                                         for name in ("compile_s", "total_s"))) for case in timed)  # fmt: skip
    return [
        ChartSpec("dynamic-latency", "Dynamic-shape request latency per strategy",
                  BarPlot(f"Request latency per strategy ({device})", "ms", ("p50", "p90", "p99"), latency, "strategy"),
                  "Every strategy plays the same seeded stream of request shapes; compile stalls show in p99."),
        ChartSpec("dynamic-compile", "Dynamic-shape compile cost per strategy",
                  BarPlot(f"Compile time and total time per strategy ({device})", "seconds", ("compile s", "total s"), cost,
                          "strategy"),
                  "Compile seconds include every recompilation the stream triggered."),
    ]  # fmt: skip


REPORT = ProbeReport("dynamic", order=40, findings=dynamic_findings, table=dynamic_table, charts=dynamic_charts,
                     readings=dynamic_readings)  # fmt: skip
