"""Which GEMM shapes fit a probe's share: a cost model per device kind, and the shapes it picks.

Every dtype gets the same shapes (one variable at a time: a bf16-vs-fp32 comparison must not also
change the shape). Shapes are taken in a fixed order of roles until the share runs out; each role's
size is the largest rung of its ladder whose estimated cost fits one (shape, dtype, implementation)
pair's part of the share. The rates below are assumed, low on purpose, so a busy machine still fits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

GemmKind = Literal["square", "decode", "prefill"]

DECODE_ROWS = (1, 16)  # tokens per step: one sequence, and a small batch of sequences
PREFILL_ROWS = (512, 1024, 2048, 4096)  # prompt tokens
# Roles in the order a shrinking share drops them (the last first).
ROLES = ("decode-1", "prefill", "square-small", "square-large", "decode-16")
_TIMED_CALLS = 10  # the checked call + min_samples (8) timed calls + one spare
_WARMUP_S = 0.1  # the harness's default warmup
MIN_SHAPES = 3  # even a tiny share gets decode m=1, prefill and the small square (at their smallest)


@dataclass(frozen=True)
class GemmShape:
    """C (m x n) = A (m x k) @ B (k x n), and the role it plays in a model."""

    kind: GemmKind
    m: int
    n: int
    k: int

    @property
    def flops(self) -> float:
        """Multiply-adds count two."""
        return 2.0 * self.m * self.n * self.k


@dataclass(frozen=True)
class DeviceAssumptions:
    """What sizing assumes of a device kind: low throughputs, fixed costs, the ladders to pick from."""

    flop_per_s: float  # the slowest of fp32/fp16/bf16 by torch.matmul: every dtype gets the same shapes
    reference_flop_per_s: float  # the float64 reference matmul
    bytes_per_s: float  # skinny (decode) shapes are bound by reading B
    call_overhead_s: float  # dispatch, launch, and on accelerators the L2 flush before each timed call
    input_s_per_element: float  # building the seeded inputs (on the device where it has a generator)
    output_s_per_element: float  # comparing the output with the reference, always on the host
    fixed_pair_s: float  # per pair whatever the size: Triton JIT and torch.compile on GPUs, checks on busy CPUs
    compiler_startup_s: float  # torch.compile's one-time start, paid while planning (see probe.py)
    pairs_per_shape: int  # timed (dtype, implementation) pairs per shape: mirrors probe.py's implementations
    extra_pairs: int  # timed pairs not proportional to shapes (torch.compile on two CPU cases)
    square_sizes: tuple[int, ...]
    widths: tuple[int, ...]  # model width: n = k of decode and prefill


ASSUMPTIONS: dict[str, DeviceAssumptions] = {
    # 2 slow cores; 16-bit at half the fp32 rate (no AMX or AVX512-FP16 assumed).
    "cpu": DeviceAssumptions(
        flop_per_s=20e9,
        reference_flop_per_s=20e9,
        bytes_per_s=5e9,
        call_overhead_s=20e-6,
        input_s_per_element=10e-9,
        output_s_per_element=50e-9,
        fixed_pair_s=0.5,  # on a busy CPU each of the ~20 parallel ops of a check may wait a time slice
        compiler_startup_s=4.0,  # importing dynamo and inductor, then a first compile: 2-5 s on this VM
        pairs_per_shape=3,  # torch.matmul x 3 dtypes (fp8 is unsupported there and costs nothing)
        extra_pairs=2,
        square_sizes=(128, 256, 512, 1024, 2048, 4096),
        widths=(256, 512, 1024, 2048, 4096),
    ),
    # fp32 without TF32 on a small GPU; a consumer GPU's float64 rate.
    "cuda": DeviceAssumptions(
        flop_per_s=5e12,
        reference_flop_per_s=0.5e12,
        bytes_per_s=300e9,
        call_overhead_s=200e-6,
        input_s_per_element=1e-9,
        output_s_per_element=30e-9,
        fixed_pair_s=0.8,
        compiler_startup_s=10.0,
        pairs_per_shape=16,  # 3 dtypes x (torch.matmul, torch.compile, <= 3 Triton tiles) + torch._scaled_mm
        extra_pairs=0,
        square_sizes=(512, 1024, 2048, 4096, 8192),
        widths=(1024, 2048, 4096),
    ),
    # The reference runs on the host: Ascend's AI cores have no float64 matmul.
    "npu": DeviceAssumptions(
        flop_per_s=5e12,
        reference_flop_per_s=20e9,
        bytes_per_s=300e9,
        call_overhead_s=200e-6,
        input_s_per_element=1e-9,
        output_s_per_element=30e-9,
        fixed_pair_s=0.3,
        compiler_startup_s=0.0,
        pairs_per_shape=3,
        extra_pairs=0,
        square_sizes=(512, 1024, 2048, 4096, 8192),
        widths=(1024, 2048, 4096),
    ),
}


def pair_cost_s(shape: GemmShape, assumed: DeviceAssumptions) -> float:
    """Estimated seconds for one implementation on one shape: build, check, reference, warmup, timed calls."""
    inputs, outputs = shape.m * shape.k + shape.k * shape.n, shape.m * shape.n
    call_s = max(shape.flops / assumed.flop_per_s, 4 * (inputs + outputs) / assumed.bytes_per_s)
    return (
        assumed.fixed_pair_s
        + _WARMUP_S
        + _TIMED_CALLS * (call_s + assumed.call_overhead_s)
        + shape.flops / assumed.reference_flop_per_s
        + inputs * assumed.input_s_per_element
        + outputs * assumed.output_s_per_element
    )


def _largest_fitting(candidates: list[GemmShape], assumed: DeviceAssumptions, part_s: float) -> GemmShape:
    """The last candidate (they grow) whose cost fits part_s; the first one when none does."""
    fitting = [shape for shape in candidates if pair_cost_s(shape, assumed) <= part_s]
    return fitting[-1] if fitting else candidates[0]


def _usable_s(assumed: DeviceAssumptions, share_s: float) -> float:
    """The share left for the per-shape pairs once the compiler's start and the extra pairs are paid."""
    extra_s = assumed.extra_pairs * (assumed.fixed_pair_s + _WARMUP_S)
    return max(0.0, share_s - assumed.compiler_startup_s - extra_s)


def shape_count(device_kind: str, share_s: float) -> int:
    """How many shapes (3 to 5) the share affords once each pair's fixed costs are paid."""
    assumed = ASSUMPTIONS[device_kind]
    per_shape_s = assumed.pairs_per_shape * (assumed.fixed_pair_s + _WARMUP_S)
    return max(MIN_SHAPES, min(len(ROLES), math.floor(_usable_s(assumed, share_s) / per_shape_s)))


def gemm_shapes(device_kind: str, share_s: float) -> list[GemmShape]:
    """The shapes for share_s seconds: the first shape_count() roles of ROLES, smallest product first.

    The model width is the largest whose m=512 prefill fits a pair's part; the prefill's m the
    largest that then fits. The small square is the ladder's first rung (an overhead-bound point,
    and on CPU the Triton interpreter's check); the large square the largest other one that fits.
    """
    assumed = ASSUMPTIONS[device_kind]
    count = shape_count(device_kind, share_s)
    part_s = _usable_s(assumed, share_s) / (count * assumed.pairs_per_shape)
    width = _largest_fitting([GemmShape("prefill", PREFILL_ROWS[0], d, d) for d in assumed.widths], assumed, part_s).n
    prefill = _largest_fitting([GemmShape("prefill", m, width, width) for m in PREFILL_ROWS], assumed, part_s)
    squares = [GemmShape("square", n, n, n) for n in assumed.square_sizes]
    # A prefill with m equal to the width is already a square: the large square looks elsewhere.
    other_squares = [shape for shape in squares if (shape.m, shape.n, shape.k) != (prefill.m, prefill.n, prefill.k)]
    by_role = {
        "decode-1": GemmShape("decode", DECODE_ROWS[0], width, width),
        "prefill": prefill,
        "square-small": squares[0],
        "square-large": _largest_fitting(other_squares, assumed, part_s),
        "decode-16": GemmShape("decode", DECODE_ROWS[1], width, width),
    }
    chosen: list[GemmShape] = []
    for role in ROLES[:count]:
        if by_role[role] not in chosen:  # the large square is the small one when nothing larger fits
            chosen.append(by_role[role])
    # The harness splits the time left evenly over the pairs left, counting pairs that will turn
    # out unsupported until they pass, so later pairs get larger parts: the largest products go last.
    return sorted(chosen, key=lambda shape: shape.flops)
