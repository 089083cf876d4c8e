"""Dynamic-shape readings: recompilations per strategy, the recompile limit, total time, padding waste."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from probes.models import ProbeCase
from probes.reporting import Reading, make_reading

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


# metric -> (reading suffix, how several streams combine, the figure's text for a value)
_METRICS: dict[str, tuple[str, Callable[[list[float]], float], Callable[[float], str]]] = {
    "recompiles_per_100_requests": ("recompiles_per_100", max, lambda v: f"{v:.3g} recompiles per 100 requests"),
    "recompile_limit_hit": ("limit_hit", max, lambda v: "hit the recompile limit" if v else "stayed under the limit"),
    "total_s": ("total_s", _mean, lambda v: f"{v:.3g} s in all, compilation included"),
    "padding_waste_pct": ("padding_waste_pct", max, lambda v: f"{v:.3g}% of the padded work wasted"),
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
        suffix, combine, text = _METRICS[metric]
        value = float(combine([case.metrics[metric].value for case in listed]))
        figure = f"{_label(prefix)}: {text(value)}"
        readings.append(make_reading(f"{prefix}_{suffix}", value, figure, listed))
    return readings


def _label(prefix: str) -> str:
    return next(name for name, known in STRATEGIES.items() if known == prefix)
