"""Layout comparisons read off the probe's cases: channels-last against NCHW, and what a mismatch costs."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from probes.models import ProbeCase

OP_NAMES = {"conv": "conv", "block": "conv block"}


@dataclass(frozen=True)
class LayoutComparison:
    """One (op, dtype, shape): median seconds per layout and the ratios a finding states."""

    op: str
    dtype: str
    shape: str
    nchw_s: float
    nhwc_s: float
    mismatch_s: float | None
    case_ids: tuple[str, ...]
    noisy: bool = False  # some timing behind it has IQR/median above the noise threshold
    pair: tuple[str, str] = ("", "")  # (NCHW case id, channels-last case id)

    @property
    def nhwc_speedup(self) -> float:
        """NCHW time / channels-last time: above 1 when channels-last is faster."""
        return self.nchw_s / self.nhwc_s

    @property
    def mismatch_cost(self) -> float | None:
        """Extra time of the mismatched layout over the faster matched one (0.18: 18% slower)."""
        return None if self.mismatch_s is None else self.mismatch_s / min(self.nchw_s, self.nhwc_s) - 1.0

    @property
    def conversion_share(self) -> float | None:
        """Share of the mismatched call spent beyond the faster matched layout: the hidden conversions."""
        return None if self.mismatch_s is None else max(0.0, 1.0 - min(self.nchw_s, self.nhwc_s) / self.mismatch_s)


def layout_comparisons(cases: Sequence[ProbeCase]) -> list[LayoutComparison]:
    """One comparison per (op, dtype, shape) whose NCHW and channels-last cases were both timed."""
    medians: dict[tuple[str, str, str], dict[str, tuple[float, str, bool]]] = defaultdict(dict)
    for case in cases:
        if case.status == "ok" and case.timing is not None and case.timing.stats.median > 0:
            group = (str(case.key.options.get("op")), case.key.dtype, case.key.shape_text)
            medians[group][case.key.layout] = (case.timing.stats.median, case.key.case_id, case.timing.stats.noisy)
    comparisons = []
    for (op, dtype, shape), layouts in sorted(medians.items()):
        if "nchw" in layouts and "nhwc" in layouts:
            mismatch = layouts.get("mismatch")
            comparisons.append(
                LayoutComparison(
                    op=op, dtype=dtype, shape=shape, nchw_s=layouts["nchw"][0], nhwc_s=layouts["nhwc"][0],
                    mismatch_s=mismatch[0] if mismatch else None,
                    case_ids=tuple(sorted(case_id for _, case_id, _ in layouts.values())),
                    noisy=any(noisy for _, _, noisy in layouts.values()),
                    pair=(layouts["nchw"][1], layouts["nhwc"][1]),
                )
            )  # fmt: skip
    return comparisons


def comparison_line(comparison: LayoutComparison) -> str:
    """'channels-last 1.30x faster than NCHW for conv block bf16 (4x32x28x28); mismatch costs 18%'."""
    speedup = comparison.nhwc_speedup
    verdict = f"{speedup:.2f}x faster than" if speedup >= 1 else f"{1 / speedup:.2f}x SLOWER than"
    text = f"channels-last {verdict} NCHW for {OP_NAMES.get(comparison.op, comparison.op)} {comparison.dtype}"
    text += f" ({comparison.shape})"
    cost = comparison.mismatch_cost
    if cost is not None:
        text += f"; mismatch costs {cost:.0%} (conversions {comparison.conversion_share:.0%} of the mismatched call)"
    return text + (" [noisy timings]" if comparison.noisy else "")
