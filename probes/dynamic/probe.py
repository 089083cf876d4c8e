"""Dynamic shapes: one transformer block fed a seeded stream of (batch, length) requests, played once from cold.

Implementations, cheapest first (a case that ends early passes its time on to the dearer ones):
eager; torch.compile(dynamic=True); pad-to-bucket (powers of two) with a static compile; on CUDA
one CUDA graph captured per bucket; torch.compile(dynamic=False), which compiles once per shape
until dynamo's recompile limit (8) sends the rest of the stream to eager.

"From cold" means a fresh torch._dynamo.reset() and a fresh compiled module per pass, with
torch's defaults otherwise: inductor's on-disk caches stay on, and the fx_graph_cache_hits/misses
metrics say whether a pass found its graphs there. Once-per-process compiler start-up is paid
before the first compile pass (compiler_warmup.py), so it is charged to no implementation.
compile_s is dynamo's "_compile.compile_inner" time (tracing, lowering, code generation), or the
capture time for CUDA graphs; lazy first-launch work (Triton autotuning) shows in the first
request of a shape instead. Each metric is defined in playback.pass_result.
"""

from __future__ import annotations

import functools

import torch
import torch._dynamo

from probes.dynamic.bucketing import CudaGraphBuckets, PaddedRunner
from probes.dynamic.compile_stats import CompileCounter
from probes.dynamic.compiler_warmup import warm_compiler
from probes.dynamic.inputs import TransformerBlock, make_block
from probes.dynamic.playback import pass_result, play_requests, request_input, request_inputs
from probes.dynamic.sizing import (
    DEFAULT_RECOMPILE_LIMIT,
    SCALES,
    RequestShape,
    StreamSpec,
    bucket_of,
    choose_stream,
    estimated_costs,
    minimum_share_s,
    padding_waste_pct,
    request_shapes,
)
from probes.harness.device import Device
from probes.registry import CaseSpec, Probe, Scenario, ScenarioResult, Unsupported, implementation

# The torch.compile backend measured; the tests swap in "eager" (dynamo alone: same guards and
# recompiles, no code generation) to check the counting without inductor's compile times.
COMPILE_BACKEND = "inductor"
# The order the implementations are defined (so planned) in below; sizing simulates it.
PLAN_ORDER = ("eager", "compile.dynamic", "compile.bucketed", "cudagraph.bucketed", "compile.static")
# Set by dynamic_cases when the share cannot afford the compile passes. The worker plans and builds
# in one process, so the builders see what planning decided (a restarted child plans identically).
_compile_refusal: str | None = None


def runnable_implementations(device_kind: str) -> list[str]:
    """The implementations that run on a device kind, in plan order."""
    return [name for name in PLAN_ORDER if name != "cudagraph.bucketed" or device_kind == "cuda"]


def dynamic_cases(device: Device, share_s: float) -> list[CaseSpec]:
    """One fp32 stream sized to the share; when even the smallest cannot afford compiling, compiles are refused."""
    global _compile_refusal
    scale, runnable = SCALES[device.kind], runnable_implementations(device.kind)
    spec, compiles_fit = choose_stream(device.kind, share_s, runnable)
    _compile_refusal = None
    if not compiles_fit:
        needed = minimum_share_s(estimated_costs(scale, spec, runnable))
        _compile_refusal = (
            f"share too small for torch.compile: {share_s:.1f} s, the smallest stream needs ~{needed:.0f} s"
        )
    return [
        CaseSpec(
            dtype="fp32",
            shape={"width": scale.width, "heads": scale.heads, "max_batch": spec.max_batch, "max_len": spec.max_len},
            layout="batch,length,width",
            options={"requests": spec.requests, "lengths": spec.lengths, "seed": spec.seed},
        )
    ]


PROBE = Probe(
    name="dynamic",
    description="Dynamic shapes: eager vs torch.compile static/dynamic vs pad-to-bucket (and CUDA graphs), from cold.",
    cases=dynamic_cases,
)


def stream_of(case: CaseSpec) -> StreamSpec:
    """The stream a case's identity describes."""
    return StreamSpec(
        requests=int(case.options["requests"]),
        lengths=int(case.options["lengths"]),
        max_len=case.shape["max_len"],
        max_batch=case.shape["max_batch"],
        seed=int(case.options["seed"]),
    )


def shapes_of(case: CaseSpec) -> list[RequestShape]:
    """The case's request shapes (lengths never equal to the width: see sizing.request_shapes)."""
    return request_shapes(stream_of(case), frozenset({case.shape["width"]}))


@functools.lru_cache(maxsize=2)
def _last_output_float64(width: int, heads: int, spec: StreamSpec) -> torch.Tensor:
    shapes = request_shapes(spec, frozenset({width}))
    block = make_block(width, heads, torch.device("cpu"), torch.float64)
    with torch.no_grad():
        return block(request_input(shapes[-1], width, len(shapes) - 1).double())


def reference_for(case: CaseSpec) -> torch.Tensor:
    """The last request's output from the same block in float64 on the CPU (computed once per case)."""
    return _last_output_float64(case.shape["width"], case.shape["heads"], stream_of(case))


class _Stream:
    """A case's request shapes, inputs and fp32 block on the device, built before the pass (never timed)."""

    def __init__(self, case: CaseSpec, device: Device) -> None:
        self.shapes = shapes_of(case)
        self.block: TransformerBlock = make_block(case.shape["width"], case.shape["heads"], device.torch_device)
        self.inputs = request_inputs(self.shapes, case.shape["width"], device)


def _compiled_scenario(case: CaseSpec, device: Device, *, dynamic: bool, bucketed: bool) -> Scenario:
    if _compile_refusal is not None:
        raise Unsupported(_compile_refusal)
    if COMPILE_BACKEND == "inductor":
        warm_compiler(device.torch_device)
    stream = _Stream(case, device)
    executed = [bucket_of(shape) for shape in stream.shapes] if bucketed else stream.shapes
    # Bucketing bounds the shapes by design, so a deployment would raise the limit to the bucket count.
    recompile_limit = max(DEFAULT_RECOMPILE_LIMIT, len(set(executed))) if bucketed else DEFAULT_RECOMPILE_LIMIT

    def play() -> ScenarioResult:
        torch._dynamo.reset()  # from cold: no compiled code left by an earlier pass in this process
        counter = CompileCounter()
        compiled = torch.compile(stream.block, dynamic=dynamic, backend=COMPILE_BACKEND)
        run = PaddedRunner(compiled) if bucketed else compiled
        with torch._dynamo.config.patch(recompile_limit=recompile_limit):
            step_seconds, output = play_requests(run, stream.inputs, device)
        activity = counter.activity()
        return pass_result(
            step_seconds,
            output,
            executed,
            compiles=activity.compiles,
            compile_s=activity.compile_s,
            padding_waste_pct=padding_waste_pct(stream.shapes) if bucketed else 0.0,
            limit_hit=activity.limit_hit,
            cache_hits=activity.cache_hits,
            cache_misses=activity.cache_misses,
        )

    return Scenario(play=play, reference=lambda: reference_for(case))


@implementation("eager", baseline=True)
def eager(case: CaseSpec, device: Device) -> Scenario:
    """The block as written, every request at its own shape."""
    stream = _Stream(case, device)

    def play() -> ScenarioResult:
        step_seconds, output = play_requests(stream.block, stream.inputs, device)
        return pass_result(step_seconds, output, stream.shapes, compiles=0, compile_s=0.0)

    return Scenario(play=play, reference=lambda: reference_for(case))


@implementation("compile.dynamic")
def compile_dynamic(case: CaseSpec, device: Device) -> Scenario:
    """torch.compile(dynamic=True): symbolic batch and length, so few graphs."""
    return _compiled_scenario(case, device, dynamic=True, bucketed=False)


@implementation("compile.bucketed")
def compile_bucketed(case: CaseSpec, device: Device) -> Scenario:
    """Each request zero-padded to its power-of-two bucket, then torch.compile(dynamic=False): a graph per bucket."""
    return _compiled_scenario(case, device, dynamic=False, bucketed=True)


@implementation("cudagraph.bucketed", enabled=lambda device: device.kind == "cuda")
def cudagraph_bucketed(case: CaseSpec, device: Device) -> Scenario:
    """The eager block captured as one CUDA graph per bucket, replayed for every request of that bucket."""
    stream = _Stream(case, device)
    executed = [bucket_of(shape) for shape in stream.shapes]

    def play() -> ScenarioResult:
        graphs = CudaGraphBuckets(stream.block)
        step_seconds, output = play_requests(graphs, stream.inputs, device)
        return pass_result(
            step_seconds,
            output,
            executed,
            compiles=graphs.captures,
            compile_s=graphs.capture_s,
            padding_waste_pct=padding_waste_pct(stream.shapes),
        )

    return Scenario(play=play, reference=lambda: reference_for(case))


@implementation("compile.static")
def compile_static(case: CaseSpec, device: Device) -> Scenario:
    """torch.compile(dynamic=False): one graph per (batch, length) until the recompile limit, then eager."""
    return _compiled_scenario(case, device, dynamic=False, bucketed=False)
