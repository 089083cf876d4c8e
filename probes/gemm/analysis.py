"""Reading GEMM evidence: how much faster (or slower) each dtype is than fp32 on the same shape.

"Is bf16 slower than fp32 on this CPU?" decides whether a CPU deployment should keep fp32 weights:
CPUs without AMX or AVX512-BF16 convert bf16 on the fly and can lose to fp32.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from probes.models import ProbeCase


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
    vendor = {_shape_key(case): case for case in timed
              if case.key.implementation == VENDOR_IMPLEMENTATION and case.key.dtype == baseline_dtype}  # fmt: skip
    speedups = []
    for case in timed:
        twin = vendor.get(_shape_key(case))
        if case.key.implementation != FP8_IMPLEMENTATION or twin is None or twin.timing is None or case.timing is None:
            continue
        speedups.append(DtypeSpeedup(case.key.implementation, dict(case.key.shape), str(case.key.options.get("kind", "")),
                                     "fp8", baseline_dtype, twin.timing.stats.median / case.timing.stats.median,
                                     (twin.key.case_id, case.key.case_id)))  # fmt: skip
    return speedups
