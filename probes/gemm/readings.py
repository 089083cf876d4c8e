"""GEMM readings: each dtype against fp32 for the vendor library, and Triton against the vendor library."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from probes.gemm.analysis import dtype_speedups, fp8_speedups
from probes.models import ProbeCase
from probes.reporting import Reading, make_reading, median_s, plural
from probes.statistics import geometric_mean

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
    for baseline, name in (("fp32", "gemm_fp8_speedup"), ("bf16", "gemm_fp8_vs_bf16_speedup")):
        pairs = fp8_speedups(cases, baseline)
        if not pairs:
            continue
        values = [pair.speedup for pair in pairs]
        mean = geometric_mean(values)
        shapes = {tuple(pair.shape.items()) for pair in pairs}
        used = [case for case in cases if median_s(case) is not None and tuple(case.key.shape.items()) in shapes
                and (case.key.dtype == "fp8" or (case.key.implementation == VENDOR_GEMM and case.key.dtype == baseline))]  # fmt: skip
        figure = f"fp8 {mean:.2f}x {baseline} (torch._scaled_mm vs torch.matmul, geometric mean over {plural(len(pairs), 'shape')})"
        readings.append(replace(make_reading(name, mean, figure, used), low=min(values), high=max(values),
                                pairs=tuple(pair.pair for pair in pairs)))  # fmt: skip
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
        reading = make_reading(f"gemm_{dtype}_speedup", mean, figure, used)
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
    pairs = tuple((vendor_by_group[group].key.case_id, case.key.case_id) for group, (_, case) in sorted(fastest.items()))
    return [replace(make_reading("triton_vs_vendor_gemm", mean, figure, used), pairs=pairs)]
