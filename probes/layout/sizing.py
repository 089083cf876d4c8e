"""Which convolution shape fits the layout probe's share: one shape for every (op, dtype, layout) case.

Each case costs about a fixed part (warmup, checks, the float64 reference) plus its timed calls. The
throughputs are assumed, low on purpose (bf16 convolutions are slow on CPUs without native bf16).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ConvShape:
    """A 3x3, stride-1, padding-1 convolution from `channels` to `channels` on batch x side x side images."""

    batch: int
    channels: int
    side: int

    @property
    def flops(self) -> float:
        """Multiply-adds count two."""
        return 2.0 * self.batch * self.channels * self.channels * 9 * self.side * self.side


@dataclass(frozen=True)
class LayoutCosts:
    """Assumed costs on one device kind."""

    flop_per_s: float
    reference_flop_per_s: float
    fixed_case_s: float
    shapes: tuple[ConvShape, ...]  # small to large


CALLS_PER_CASE = 15  # the checked call, warmup, and at least ten timed samples
COSTS: dict[str, LayoutCosts] = {
    "cpu": LayoutCosts(
        flop_per_s=5e9,
        reference_flop_per_s=1e9,
        fixed_case_s=0.2,
        shapes=(ConvShape(2, 32, 28), ConvShape(4, 32, 28), ConvShape(8, 64, 28), ConvShape(16, 64, 56)),
    ),
    "cuda": LayoutCosts(
        flop_per_s=5e12,
        reference_flop_per_s=2e11,
        fixed_case_s=0.3,
        shapes=(ConvShape(8, 64, 28), ConvShape(16, 64, 56), ConvShape(32, 128, 56), ConvShape(64, 256, 56)),
    ),
}
COSTS["npu"] = COSTS["cuda"]


def case_seconds(costs: LayoutCosts, shape: ConvShape) -> float:
    """Expected seconds for one case of this shape."""
    return costs.fixed_case_s + shape.flops * (CALLS_PER_CASE / costs.flop_per_s + 1 / costs.reference_flop_per_s)


def choose_shape(device_kind: str, share_s: float, cases: int) -> ConvShape:
    """The largest shape whose `cases` cases fit the share; the smallest when none does."""
    costs = COSTS[device_kind]
    fitting = [shape for shape in costs.shapes if cases * case_seconds(costs, shape) <= share_s]
    return fitting[-1] if fitting else costs.shapes[0]
