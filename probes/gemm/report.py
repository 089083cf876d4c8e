"""What the GEMM probe's evidence says: dtype speedups, the best share of peak, throughput charts.

Its readings: each dtype against fp32 for the vendor library on the same shape, and Triton against the
vendor library. "Is bf16 slower than fp32 on this CPU?" decides whether a CPU deployment should keep
fp32 weights: CPUs without AMX or AVX512-BF16 convert bf16 on the fly and can lose to fp32.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from probes.models import ProbeCase
from probes.reporting import (
    BarGroup,
    BarPlot,
    ChartSpec,
    ProbeReport,
    Reading,
    ReadingFamily,
    ReadingSpec,
    Table,
    make_reading,
    median_s,
    plural,
    timed_cases,
)
from probes.statistics import geometric_mean


@dataclass(frozen=True)
class DtypeSpeedup:
    """One ok case against the same implementation, shape, layout and options in the baseline dtype."""

    implementation: str
    shape: dict[str, int]
    kind: str
    dtype: str
    baseline_dtype: str
    speedup: float  # baseline median / this median: above 1 is faster than the baseline dtype
    pair: tuple[str, str] = ("", "")  # (baseline case id, this case id)

    @property
    def slower(self) -> bool:
        """True when this dtype took longer than the baseline dtype."""
        return self.speedup < 1.0


def _match_key(case: ProbeCase) -> tuple[object, ...]:
    key = case.key
    return (key.implementation, tuple(key.shape.items()), key.layout, key.device, tuple(sorted(key.options.items())))


def dtype_speedups(cases: Iterable[ProbeCase], baseline_dtype: str = "fp32") -> list[DtypeSpeedup]:
    """Speedup of every timed case over its baseline-dtype twin, in the order of `cases`.

    Cases without a timed twin (fp8, whose layout and options differ: `fp8_speedups`; a twin that failed)
    are left out.
    """
    timed = [case for case in cases if case.status == "ok" and case.timing is not None]
    baselines = {_match_key(case): case for case in timed if case.key.dtype == baseline_dtype}
    speedups: list[DtypeSpeedup] = []
    for case in timed:
        twin = baselines.get(_match_key(case))
        if case.key.dtype == baseline_dtype or twin is None or twin.timing is None or case.timing is None:
            continue
        speedups.append(
            DtypeSpeedup(
                implementation=case.key.implementation,
                shape=dict(case.key.shape),
                kind=str(case.key.options.get("kind", "")),
                dtype=case.key.dtype,
                baseline_dtype=baseline_dtype,
                speedup=twin.timing.stats.median / case.timing.stats.median,
                pair=(twin.key.case_id, case.key.case_id),
            )
        )
    return speedups


FP8_IMPLEMENTATION = "torch._scaled_mm"
VENDOR_IMPLEMENTATION = "torch.matmul"


def _shape_key(case: ProbeCase) -> tuple[object, ...]:
    return (tuple(case.key.shape.items()), case.key.device, case.key.options.get("kind"))


def fp8_speedups(cases: Iterable[ProbeCase], baseline_dtype: str) -> list[DtypeSpeedup]:
    """Each timed fp8 GEMM (torch._scaled_mm: e4m3 in, bf16 out, B column-major) against the vendor GEMM
    (torch.matmul) of the same shape in `baseline_dtype`: their layouts and options differ by design."""
    timed = [case for case in cases if case.status == "ok" and case.timing is not None]
    vendor = {
        _shape_key(case): case
        for case in timed
        if case.key.implementation == VENDOR_IMPLEMENTATION and case.key.dtype == baseline_dtype
    }
    speedups = []
    for case in timed:
        twin = vendor.get(_shape_key(case))
        if case.key.implementation != FP8_IMPLEMENTATION or twin is None or twin.timing is None or case.timing is None:
            continue
        speedups.append(
            DtypeSpeedup(
                case.key.implementation,
                dict(case.key.shape),
                str(case.key.options.get("kind", "")),
                "fp8",
                baseline_dtype,
                twin.timing.stats.median / case.timing.stats.median,
                (twin.key.case_id, case.key.case_id),
            )
        )
    return speedups


# Each dtype's speed over fp32 in the vendor library (gemm_bf16_speedup ...); fp8 over fp32 is one of them.
GEMM_SPEEDUP = ReadingFamily("gemm_", "_speedup")
GEMM_BF16_SPEEDUP = GEMM_SPEEDUP.named("bf16")
GEMM_FP8_VS_BF16_SPEEDUP = ReadingSpec("gemm_fp8_vs_bf16_speedup")  # what FP8 buys over bf16
TRITON_VS_VENDOR_GEMM = ReadingSpec("triton_vs_vendor_gemm")  # the fastest Triton tile against the vendor GEMM

VENDOR_GEMM = "torch.matmul"  # cuBLAS, oneDNN or CANN underneath, depending on the device
TRITON_PREFIX = "triton"


def gemm_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """gemm_<dtype>_speedup (geometric mean over shapes, per-kind detail), the fp8 ones, triton_vs_vendor_gemm."""
    vendor = [case for case in cases if case.key.implementation == VENDOR_GEMM]
    return dtype_readings(vendor) + fp8_readings(cases) + triton_readings(cases, vendor)


def fp8_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """gemm_fp8_speedup (over fp32, like the other dtypes) and gemm_fp8_vs_bf16_speedup (what FP8 buys over
    the bf16 a tensor-core deployment would otherwise run): torch._scaled_mm against torch.matmul per shape."""
    readings = []
    for baseline, spec in (("fp32", GEMM_SPEEDUP.named("fp8")), ("bf16", GEMM_FP8_VS_BF16_SPEEDUP)):
        pairs = fp8_speedups(cases, baseline)
        if not pairs:
            continue
        values = [pair.speedup for pair in pairs]
        mean = geometric_mean(values)
        shapes = {tuple(pair.shape.items()) for pair in pairs}
        used = [
            case
            for case in cases
            if median_s(case) is not None
            and tuple(case.key.shape.items()) in shapes
            and (case.key.dtype == "fp8" or (case.key.implementation == VENDOR_GEMM and case.key.dtype == baseline))
        ]
        figure = f"fp8 {mean:.2f}x {baseline} (torch._scaled_mm vs torch.matmul, geometric mean over {plural(len(pairs), 'shape')})"
        readings.append(
            replace(
                make_reading(spec, mean, figure, used),
                low=min(values),
                high=max(values),
                pairs=tuple(pair.pair for pair in pairs),
            )
        )
    return readings


def dtype_readings(vendor: Sequence[ProbeCase]) -> list[Reading]:
    """One reading per non-fp32 dtype with a timed fp32 twin."""
    by_dtype: dict[str, list[tuple[str, float]]] = defaultdict(list)
    pair_ids: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for speedup in dtype_speedups(vendor):
        by_dtype[speedup.dtype].append((speedup.kind, speedup.speedup))
        pair_ids[speedup.dtype].append(speedup.pair)
    readings = []
    for dtype, pairs in sorted(by_dtype.items()):
        mean = geometric_mean([value for _, value in pairs])
        kinds = sorted({kind for kind, _ in pairs if kind})
        detail = "".join(f"; {kind} {geometric_mean([v for k, v in pairs if k == kind]):.2f}x" for kind in kinds)
        figure = f"{dtype} {mean:.2f}x fp32 (geometric mean over {plural(len(pairs), 'shape')}{detail})"
        used = [case for case in vendor if median_s(case) is not None and case.key.dtype in (dtype, "fp32")]
        values = [value for _, value in pairs]
        reading = make_reading(GEMM_SPEEDUP.named(dtype), mean, figure, used)
        readings.append(replace(reading, low=min(values), high=max(values), pairs=tuple(pair_ids[dtype])))
    return readings


def triton_readings(cases: Sequence[ProbeCase], vendor: Sequence[ProbeCase]) -> list[Reading]:
    """Vendor median / fastest Triton tile median, geometric mean over the groups both timed."""
    vendor_by_group = {case.key.group_id: case for case in vendor if median_s(case) is not None}
    fastest: dict[str, tuple[float, ProbeCase]] = {}
    for case in cases:
        median = median_s(case)
        group = case.key.group_id
        if case.key.implementation.startswith(TRITON_PREFIX) and median is not None and group in vendor_by_group:
            if median < fastest.get(group, (math.inf, case))[0]:
                fastest[group] = (median, case)
    if not fastest:
        return []
    ratios = [(median_s(vendor_by_group[group]) or 0.0) / median for group, (median, _) in sorted(fastest.items())]
    mean = geometric_mean(ratios)
    used = [case for _, case in fastest.values()] + [vendor_by_group[group] for group in fastest]
    figure = f"Triton {mean:.2f}x the vendor GEMM's speed (geometric mean over {plural(len(ratios), 'case')})"
    pairs = tuple(
        (vendor_by_group[group].key.case_id, case.key.case_id) for group, (_, case) in sorted(fastest.items())
    )
    return [replace(make_reading(TRITON_VS_VENDOR_GEMM, mean, figure, used), pairs=pairs)]


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
        lines.append(
            f"torch.matmul {dtype} vs fp32: {mean:.2f}x ({verdict}; geometric mean over {len(speedups)} shapes)"
        )
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
        rows.append(
            (
                implementation,
                dtype,
                case.key.shape_text,
                f"{case.metrics['tflops'].value:.3g}",
                f"{peak.value:.1f}%" if peak else "-",
            )
        )
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
            BarGroup(
                shape,
                tuple(
                    best[(shape, dtype)].metrics[metric].value
                    if (shape, dtype) in best and metric in best[(shape, dtype)].metrics
                    else None
                    for dtype in dtypes
                ),
            )
            for shape in shapes
        )

    charts = [
        ChartSpec(
            "gemm-tflops",
            "GEMM throughput by shape and dtype",
            BarPlot(
                f"GEMM TFLOP/s by shape and dtype ({device})", "TFLOP/s", dtypes, groups("tflops"), "shape (m x n x k)"
            ),
            "Best implementation of each shape and dtype; higher is better.",
        )
    ]
    if any("pct_of_peak" in case.metrics for case in best.values()):
        charts.append(
            ChartSpec(
                "gemm-peak",
                "GEMM share of the theoretical peak",
                BarPlot(
                    f"GEMM % of theoretical peak ({device})",
                    "% of peak",
                    dtypes,
                    groups("pct_of_peak"),
                    "shape (m x n x k)",
                ),
                "Measured TFLOP/s over the dtype's theoretical peak for this device (from `advisor env`).",
            )
        )
    return charts


REPORT = ProbeReport(
    "gemm",
    order=20,
    findings=gemm_findings,
    table=gemm_table,
    charts=gemm_charts,
    readings=gemm_readings,
    declares=(GEMM_SPEEDUP, GEMM_FP8_VS_BF16_SPEEDUP, TRITON_VS_VENDOR_GEMM),
)
