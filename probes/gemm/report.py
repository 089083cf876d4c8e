"""What the GEMM probe's evidence says: dtype speedups, the best share of peak, throughput charts."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from probes.gemm.analysis import dtype_speedups
from probes.gemm.readings import gemm_readings
from probes.models import ProbeCase
from probes.reporting import BarGroup, BarPlot, ChartSpec, ProbeReport, Table, timed_cases
from probes.statistics import geometric_mean

DTYPE_ORDER = ("fp32", "tf32", "bf16", "fp16", "fp8", "int8")


def gemm_findings(cases: Sequence[ProbeCase]) -> list[str]:
    """Each dtype against fp32 for torch.matmul: geometric-mean speedup over the shapes both ran."""
    by_dtype: dict[str, list[float]] = defaultdict(list)
    for speedup in dtype_speedups(case for case in cases if case.key.implementation == "torch.matmul"):
        by_dtype[speedup.dtype].append(speedup.speedup)
    lines = []
    for dtype, speedups in sorted(by_dtype.items()):
        mean = geometric_mean(speedups)
        verdict = "faster" if mean >= 1 else "SLOWER"
        lines.append(f"torch.matmul {dtype} vs fp32: {mean:.2f}x ({verdict}; geometric mean over {len(speedups)} shapes)")
    best = [case for case in cases if "pct_of_peak" in case.metrics]
    if best:
        top = max(best, key=lambda case: case.metrics["pct_of_peak"].value)
        lines.append(
            f"best: {top.key.implementation} {top.key.dtype} {top.key.shape_text}"
            f" at {top.metrics['pct_of_peak'].value:.1f}% of the theoretical peak"
        )
    return lines


def gemm_table(cases: Sequence[ProbeCase]) -> Table:
    """Per implementation and dtype, its best case by TFLOP/s and the share of the theoretical peak."""
    best: dict[tuple[str, str], ProbeCase] = {}
    for case in cases:
        if case.status != "ok" or "tflops" not in case.metrics:
            continue
        group = (case.key.implementation, case.key.dtype)
        if group not in best or case.metrics["tflops"].value > best[group].metrics["tflops"].value:
            best[group] = case
    rows = []
    for (implementation, dtype), case in sorted(best.items()):
        peak = case.metrics.get("pct_of_peak")
        rows.append((implementation, dtype, case.key.shape_text, f"{case.metrics['tflops'].value:.3g}",
                     f"{peak.value:.1f}%" if peak else "-"))  # fmt: skip
    header = ("implementation", "dtype", "best shape (m x n x k)", "TFLOP/s", "% of peak")
    return Table("GEMM", header, rows)


def _dtype_rank(dtype: str) -> int:
    return DTYPE_ORDER.index(dtype) if dtype in DTYPE_ORDER else len(DTYPE_ORDER)


def gemm_charts(cases: Sequence[ProbeCase], device: str) -> list[ChartSpec]:
    """Best TFLOP/s and % of peak per shape and dtype (the best implementation of each pair)."""
    best: dict[tuple[str, str], ProbeCase] = {}
    flops_of: dict[str, float] = {}
    for case in timed_cases(cases):
        if "tflops" not in case.metrics:
            continue
        kind = case.key.options.get("kind")
        shape = f"{case.key.shape_text}" + (f" {kind}" if kind else "")
        flops_of[shape] = case.metrics["tflops"].value * case.timing.stats.median if case.timing else 0.0
        slot = (shape, case.key.dtype)
        if slot not in best or case.metrics["tflops"].value > best[slot].metrics["tflops"].value:
            best[slot] = case
    if not best:
        return []
    shapes = sorted({shape for shape, _ in best}, key=lambda shape: (flops_of[shape], shape))
    dtypes = tuple(sorted({dtype for _, dtype in best}, key=_dtype_rank))

    def groups(metric: str) -> tuple[BarGroup, ...]:
        return tuple(
            BarGroup(shape, tuple(best[(shape, dtype)].metrics[metric].value
                                  if (shape, dtype) in best and metric in best[(shape, dtype)].metrics else None
                                  for dtype in dtypes))  # fmt: skip
            for shape in shapes
        )

    charts = [ChartSpec("gemm-tflops", "GEMM throughput by shape and dtype",
                        BarPlot(f"GEMM TFLOP/s by shape and dtype ({device})", "TFLOP/s", dtypes, groups("tflops"),
                                "shape (m x n x k)"),
                        "Best implementation of each shape and dtype; higher is better.")]  # fmt: skip
    if any("pct_of_peak" in case.metrics for case in best.values()):
        charts.append(ChartSpec("gemm-peak", "GEMM share of the theoretical peak",
                                BarPlot(f"GEMM % of theoretical peak ({device})", "% of peak", dtypes, groups("pct_of_peak"),
                                        "shape (m x n x k)"),
                                "Measured TFLOP/s over the dtype's theoretical peak for this device (from `advisor env`)."))  # fmt: skip
    return charts


REPORT = ProbeReport("gemm", order=20, findings=gemm_findings, table=gemm_table, charts=gemm_charts, readings=gemm_readings)
