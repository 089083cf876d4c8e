"""How big a stream and block each device kind gets, and whether the share affords torch.compile at all; the
request stream itself: seeded (batch, length) shapes, and the power-of-two buckets they pad to.

Compile time dominates this probe, so sizing estimates compile seconds rather than FLOPs. The CPU
figures were measured on a loaded 2-core machine with inductor's on-disk caches warm (every run
after the first on a machine); the very first run also compiles every kernel with the C++ compiler
(~4x slower) and may overrun, which the harness records as a hung case. The CUDA figures are
assumptions, not yet measured.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

MIN_BUCKET_LENGTH = 16  # shorter requests share one bucket: a few padded tokens beat another graph


@dataclass(frozen=True)
class StreamSpec:
    """What identifies a stream: it is regenerated from these, identically, by every implementation."""

    requests: int
    lengths: int  # distinct sequence lengths the requests draw from
    max_len: int
    max_batch: int
    seed: int = 0


@dataclass(frozen=True, order=True)
class RequestShape:
    """One request: `batch` sequences of `length` tokens."""

    batch: int
    length: int

    @property
    def tokens(self) -> int:
        """Real tokens in the request."""
        return self.batch * self.length


def request_shapes(spec: StreamSpec, avoid_lengths: frozenset[int] = frozenset()) -> list[RequestShape]:
    """`spec.requests` shapes: `spec.lengths` distinct lengths in [max_len/8, max_len], batch 1..max_batch.

    `avoid_lengths` are the model's fixed sizes (its width): dynamo gives equal sizes one symbol
    ("duck sizing"), so a length equal to the width would be specialized with it and recompile.
    """
    chooser = random.Random(spec.seed)
    shortest = max(1, spec.max_len // 8)
    pool = [length for length in range(shortest, spec.max_len + 1) if length not in avoid_lengths]
    distinct = sorted(chooser.sample(pool, min(spec.lengths, len(pool))))
    return [
        RequestShape(batch=chooser.randint(1, spec.max_batch), length=chooser.choice(distinct))
        for _ in range(spec.requests)
    ]


def next_power_of_two(value: int) -> int:
    """The smallest power of two >= value (value >= 1)."""
    if value < 1:
        raise ValueError(f"no power-of-two bucket for {value}")
    return 1 << (value - 1).bit_length()


def bucket_of(shape: RequestShape) -> RequestShape:
    """The padded shape: batch and length each rounded up to a power of two (length at least MIN_BUCKET_LENGTH)."""
    return RequestShape(next_power_of_two(shape.batch), max(MIN_BUCKET_LENGTH, next_power_of_two(shape.length)))


def padding_waste_pct(shapes: list[RequestShape]) -> float:
    """Padded tokens as a percentage of real tokens, over the whole stream, when every request is bucketed."""
    real = sum(shape.tokens for shape in shapes)
    padded = sum(bucket_of(shape).tokens for shape in shapes)
    return 100.0 * (padded - real) / real if real else 0.0


DEFAULT_RECOMPILE_LIMIT = 8  # torch._dynamo.config.recompile_limit in torch 2.13
_PLANNING_MARGIN = 0.9  # plan to use 90% of the share: inputs, references and numerics checks are not estimated
# A pass may run a little past its equal part (the harness calls a case hung only at part * 1.25 +
# case_grace_s, 5 s by default); the first compile pass does, because it pays the compiler warm-up.
_OVERRUN_ALLOWED_S = 2.0


@dataclass(frozen=True)
class DeviceScale:
    """The block's size on a device kind, the streams it may get (small to large) and assumed costs in seconds."""

    width: int
    heads: int
    streams: tuple[StreamSpec, ...]
    first_compile_s: float  # once per process: inductor's imports, compiler checks, worker pool
    static_graph_s: float  # one static-shape graph: trace, lower, generate and load code
    dynamic_graph_s: float  # one symbolic-shape graph
    capture_s: float  # one CUDA-graph capture with its warmup calls
    request_s: float  # one eager request


SCALES: dict[str, DeviceScale] = {
    "cpu": DeviceScale(
        width=32,
        heads=2,
        # Few shapes, the smaller streams' a subset of the larger ones' (same seed and length pool),
        # so the compile caches one run fills serve every budget: a cold graph costs ~5x a warm one.
        streams=(
            StreamSpec(requests=12, lengths=2, max_len=64, max_batch=2),
            StreamSpec(requests=24, lengths=3, max_len=64, max_batch=2),
            StreamSpec(requests=48, lengths=3, max_len=64, max_batch=2),
        ),
        first_compile_s=3.0,
        static_graph_s=0.4,
        dynamic_graph_s=1.0,
        capture_s=0.0,
        request_s=0.005,  # ~0.3 ms when the machine is idle; on a busy one OpenMP waits make it 100x more
    ),
    "cuda": DeviceScale(
        width=512,
        heads=8,
        streams=(
            StreamSpec(requests=16, lengths=3, max_len=256, max_batch=2),
            StreamSpec(requests=32, lengths=6, max_len=512, max_batch=4),
            StreamSpec(requests=64, lengths=12, max_len=1024, max_batch=4),
            StreamSpec(requests=96, lengths=16, max_len=2048, max_batch=4),
        ),
        first_compile_s=6.0,
        static_graph_s=2.0,
        dynamic_graph_s=3.0,
        capture_s=0.1,
        request_s=0.005,
    ),
}
SCALES["npu"] = SCALES["cuda"]  # no NPU measured yet: assume CUDA-like sizes and compile costs


def expected_graphs(implementation: str, shapes: list[RequestShape]) -> int:
    """Graphs (or CUDA-graph captures) an implementation is expected to build for these request shapes."""
    if implementation == "compile.static":
        return min(len(set(shapes)), DEFAULT_RECOMPILE_LIMIT)  # past the limit dynamo runs eager
    if implementation == "compile.dynamic":
        # dynamo specializes sizes 0 and 1: batch 1 and batch > 1 are two graphs
        return len({(shape.batch == 1, shape.length == 1) for shape in shapes})
    if implementation in ("compile.bucketed", "cudagraph.bucketed"):
        return len({bucket_of(shape) for shape in shapes})
    return 0


def estimated_costs(scale: DeviceScale, spec: StreamSpec, implementations: list[str]) -> list[float]:
    """Seconds each implementation's pass is expected to take, in the order given (the plan's order)."""
    shapes = request_shapes(spec, frozenset({scale.width}))
    costs: list[float] = []
    first_compile_paid = False
    for name in implementations:
        graphs = expected_graphs(name, shapes)
        cost = spec.requests * scale.request_s
        if name.startswith("compile."):
            per_graph = scale.dynamic_graph_s if name == "compile.dynamic" else scale.static_graph_s
            cost += graphs * per_graph + (0.0 if first_compile_paid else scale.first_compile_s)
            first_compile_paid = True
        elif name.startswith("cudagraph."):
            cost += graphs * scale.capture_s
        costs.append(cost)
    return costs


def fits(costs: list[float], share_s: float) -> bool:
    """Whether the passes fit the share, each within reach of its part (an equal part of what is left then)."""
    left = share_s * _PLANNING_MARGIN
    for index, cost in enumerate(costs):
        if cost > 1.25 * left / (len(costs) - index) + _OVERRUN_ALLOWED_S:
            return False
        left -= cost
    return left >= 0.0


def minimum_share_s(costs: list[float]) -> float:
    """The smallest share (to 0.1 s) that `fits` these costs."""
    low, high = 0.0, 2.0 * sum(costs) / _PLANNING_MARGIN + 1.0
    while high - low > 0.1:
        middle = (low + high) / 2
        low, high = (low, middle) if fits(costs, middle) else (middle, high)
    return high


def choose_stream(device_kind: str, share_s: float, implementations: list[str]) -> tuple[StreamSpec, bool]:
    """The largest stream whose passes all fit the share, and True; else the smallest and False (no compiles)."""
    scale = SCALES[device_kind]
    for spec in reversed(scale.streams):
        if fits(estimated_costs(scale, spec, implementations), share_s):
            return spec, True
    return scale.streams[0], False
