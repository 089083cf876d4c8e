"""Attention readings: how scratch memory grows with sequence length, naive against the best fused kernel."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from probes.attention.growth import fit_growth
from probes.models import ProbeCase
from probes.reporting import Reading, make_reading

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


def growth_reading_name(implementation: str) -> str:
    """'sdpa.flash' -> 'sdpa_flash_attention_memory_growth'."""
    return f"{implementation.replace('.', '_')}_attention_memory_growth"


def attention_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """<implementation>_attention_memory_growth for each, and fused_attention_memory_growth (the flattest fused)."""
    steepest = memory_growth_by_implementation(cases)
    readings = []
    for implementation, (slope, used) in sorted(steepest.items()):
        figure = f"{implementation} attention memory ~N^{slope:.2f}"
        readings.append(make_reading(growth_reading_name(implementation), slope, figure, used))
    fused = sorted((steepest[name][0], name) for name in FUSED_ATTENTION if name in steepest)
    if fused:
        slope, name = fused[0]
        figure = f"{name} attention memory ~N^{slope:.2f} (the flattest fused kernel)"
        readings.append(make_reading("fused_attention_memory_growth", slope, figure, steepest[name][1]))
    return readings
