"""What the dynamic-shapes probe's evidence says: each strategy's total time, recompilations and padding.

Its readings: recompilations per strategy, the recompile limit, total time and padding waste.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from probes.models import ProbeCase
from probes.reporting import (
    BarGroup,
    BarPlot,
    ChartSpec,
    ProbeReport,
    Reading,
    ReadingFamily,
    Table,
    make_reading,
    metric_text,
)

# Each strategy's readings are named <strategy prefix><suffix>: a family per metric. Recompilations, the recompile
# limit and padding waste follow from the compiler and the shape mix, not the hardware: they are portable.
RECOMPILES_PER_100 = ReadingFamily(suffix="_recompiles_per_100", portable=True)
LIMIT_HIT = ReadingFamily(suffix="_limit_hit", portable=True)
TOTAL_S = ReadingFamily(suffix="_total_s")
PADDING_WASTE_PCT = ReadingFamily(suffix="_padding_waste_pct", portable=True)
STATIC_COMPILE_RECOMPILES_PER_100 = RECOMPILES_PER_100.named("static_compile")
STATIC_COMPILE_LIMIT_HIT = LIMIT_HIT.named("static_compile")
DYNAMIC_COMPILE_RECOMPILES_PER_100 = RECOMPILES_PER_100.named("dynamic_compile")
DYNAMIC_COMPILE_TOTAL_S = TOTAL_S.named("dynamic_compile")
BUCKETED_COMPILE_TOTAL_S = TOTAL_S.named("bucketed_compile")
BUCKETED_COMPILE_PADDING_WASTE_PCT = PADDING_WASTE_PCT.named("bucketed_compile")

# probe implementation -> prefix of its reading names
STRATEGIES = {
    "eager": "eager",
    "compile.static": "static_compile",
    "compile.dynamic": "dynamic_compile",
    "compile.bucketed": "bucketed_compile",
    "cudagraph.bucketed": "cudagraph_bucketed",
}


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


# metric -> (its readings' family, how several streams combine, the figure's text for a value)
_METRICS: dict[str, tuple[ReadingFamily, Callable[[list[float]], float], Callable[[float], str]]] = {
    "recompiles_per_100_requests": (RECOMPILES_PER_100, max, lambda v: f"{v:.3g} recompiles per 100 requests"),
    "recompile_limit_hit": (LIMIT_HIT, max, lambda v: "hit the recompile limit" if v else "stayed under the limit"),
    "total_s": (TOTAL_S, _mean, lambda v: f"{v:.3g} s in all, compilation included"),
    "padding_waste_pct": (PADDING_WASTE_PCT, max, lambda v: f"{v:.3g}% of the padded work wasted"),
}
# Readings that say nothing for a strategy: eager never recompiles, only bucketing pads.
_SKIPPED = {("eager", "recompiles_per_100_requests"), ("eager", "recompile_limit_hit")}


def dynamic_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """<strategy>_<metric> for every strategy and metric measured (worst stream, mean time over streams)."""
    grouped: dict[tuple[str, str], list[ProbeCase]] = defaultdict(list)
    for case in cases:
        prefix = STRATEGIES.get(case.key.implementation)
        if prefix is None or case.status == "failed":
            continue
        for metric in _METRICS:
            if metric in case.metrics:
                grouped[(prefix, metric)].append(case)
    readings = []
    for (prefix, metric), listed in sorted(grouped.items()):
        if (prefix, metric) in _SKIPPED or (metric == "padding_waste_pct" and "bucketed" not in prefix):
            continue
        family, combine, text = _METRICS[metric]
        value = float(combine([case.metrics[metric].value for case in listed]))
        figure = f"{_label(prefix)}: {text(value)}"
        readings.append(make_reading(family.named(prefix), value, figure, listed))
    return readings


def _label(prefix: str) -> str:
    return next(name for name, known in STRATEGIES.items() if known == prefix)


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
        (
            case.key.implementation,
            metric_text(case, "total_s", ".3g"),
            metric_text(case, "compiles", ".0f"),
            metric_text(case, "recompiles_per_100_requests", ".1f"),
            metric_text(case, "padding_waste_pct", ".1f"),
        )
        for case in cases
        if case.status == "ok"
    ]
    header = ("strategy", "total s", "compiles", "recompiles / 100 requests", "padding waste %")
    return Table("Dynamic shapes", header, rows)


def dynamic_charts(cases: Sequence[ProbeCase], device: str) -> list[ChartSpec]:
    """Request latency percentiles and compile cost per strategy over the same request stream."""
    timed = [case for case in cases if case.status == "ok" and "latency_p50_s" in case.metrics]
    if not timed:
        return []
    percentiles = ("latency_p50_s", "latency_p90_s", "latency_p99_s")
    latency = tuple(
        BarGroup(
            case.key.implementation,
            tuple(case.metrics[name].value * 1e3 if name in case.metrics else None for name in percentiles),
        )
        for case in timed
    )
    cost = tuple(
        BarGroup(
            case.key.implementation,
            tuple(case.metrics[name].value if name in case.metrics else None for name in ("compile_s", "total_s")),
        )
        for case in timed
    )
    return [
        ChartSpec(
            "dynamic-latency",
            "Dynamic-shape request latency per strategy",
            BarPlot(f"Request latency per strategy ({device})", "ms", ("p50", "p90", "p99"), latency, "strategy"),
            "Every strategy plays the same seeded stream of request shapes; compile stalls show in p99.",
        ),
        ChartSpec(
            "dynamic-compile",
            "Dynamic-shape compile cost per strategy",
            BarPlot(
                f"Compile time and total time per strategy ({device})",
                "seconds",
                ("compile s", "total s"),
                cost,
                "strategy",
            ),
            "Compile seconds include every recompilation the stream triggered.",
        ),
    ]


REPORT = ProbeReport(
    "dynamic",
    order=40,
    findings=dynamic_findings,
    table=dynamic_table,
    charts=dynamic_charts,
    readings=dynamic_readings,
    declares=(RECOMPILES_PER_100, LIMIT_HIT, TOTAL_S, PADDING_WASTE_PCT),
)
