"""Fusion: the chain in inputs.py run eagerly vs compiled by torch.compile (inductor): time and launches per call.

`launches_per_call` is read from one profiled run of three calls after the checked call;
the method's inference target is a third of the eager launches. The compiled case also records
`compile_s`, its first call (tracing, code generation, and a C++/Triton compile unless inductor's
on-disk cache has the kernels). Compiling is refused when the share cannot afford the compiler's
once-per-process start-up, which planning pays (with the profiler's) so no case is charged for it.

A launch, counted from torch.profiler events: on CUDA, a device kernel the call ran (copies and memsets
excluded). On the CPU there are no launches as such, so a "launch" is one pass of compute over memory:
an ATen op doing work (the innermost op of a chain of dispatch wrappers; views and allocations excluded),
or one kernel that inductor generated (profiled by name through inductor's `cpp.enable_kernel_profile`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence

import torch
import torch._dynamo
import torch._inductor.config as inductor_config
from torch.autograd import DeviceType
from torch.profiler import ProfilerActivity, profile

from probes.dynamic.compiler_warmup import warm_compiler
from probes.environment.models import Dtype
from probes.fusion.inputs import ChainInputs, chain, chain_inputs
from probes.harness.device import Device
from probes.hotops.profiling import warm_profiler
from probes.models import Metric
from probes.registry import Bench, CaseSpec, Probe, Unsupported, implementation

TORCH_DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16}
# (tokens, width) per device kind: a batch of a transformer layer's activations.
SHAPES: dict[str, tuple[int, int]] = {"cpu": (128, 512), "cuda": (256, 4096), "npu": (256, 4096)}
# Share needed to compile: compiler start-up, profiler start-up, one compile (warm caches), both cases timed.
COMPILE_NEEDS_S: dict[str, float] = {"cpu": 8.0, "cuda": 20.0, "npu": 20.0}
_WARM_CALLS = 2
# Set by fusion_cases when the share cannot afford compiling (the worker plans and builds in one process).
_compile_refusal: str | None = None


# ATen ops that touch no data: views, metadata, allocation. Not kernels.
NOT_KERNELS = frozenset(
    f"aten::{name}"
    for name in (
        "view",
        "reshape",
        "_reshape_alias",
        "_unsafe_view",
        "as_strided",
        "t",
        "transpose",
        "permute",
        "expand",
        "unsqueeze",
        "squeeze",
        "select",
        "slice",
        "unbind",
        "narrow",
        "split",
        "chunk",
        "flatten",
        "detach",
        "alias",
        "empty",
        "empty_like",
        "empty_strided",
        "resize_",
        "lift_fresh",
        "result_type",
        "to",
        "contiguous",
        "_has_compatible_shallow_copy_type",
    )
)
_INDUCTOR_KERNEL = re.compile(r"^(graph_\d+_)?(cpp_fused|cpp_|triton_)")
_DEVICE_COPIES = ("Memcpy", "Memset")


def _is_compute(name: str) -> bool:
    return (name.startswith("aten::") and name not in NOT_KERNELS) or bool(_INDUCTOR_KERNEL.match(name))


def _cpu_launches(events: Sequence[object]) -> int:
    """Innermost compute events: one whose descendants hold no compute event counts once."""

    def count(event: object) -> int:
        inner = sum(count(child) for child in getattr(event, "cpu_children", []))
        if inner == 0 and _is_compute(getattr(event, "name", "")):
            return 1
        return inner

    roots = [event for event in events if getattr(event, "cpu_parent", None) is None]
    return sum(count(root) for root in roots)


def _device_launches(events: Sequence[object]) -> int:
    return sum(
        1
        for event in events
        if getattr(event, "device_type", None) == DeviceType.CUDA
        and not str(getattr(event, "name", "")).startswith(_DEVICE_COPIES)
    )


def launches_per_call(run: Callable[[], object], device: Device, calls: int = 3) -> float:
    """Mean launches per call over `calls` profiled calls (the caller warms the call up first)."""
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.kind == "cuda" else [])
    with profile(activities=activities) as profiler:
        for _ in range(calls):
            run()
        device.synchronize()
    events = list(profiler.events())
    launches = _device_launches(events) if device.kind == "cuda" else _cpu_launches(events)
    return launches / calls


def fusion_dtype(device_kind: str) -> Dtype:
    """fp32 on the CPU, bf16 on accelerators."""
    return "fp32" if device_kind == "cpu" else "bf16"


def fusion_cases(device: Device, share_s: float) -> list[CaseSpec]:
    """One chain shape; starts the profiler and, when the share affords it, the compiler (no case pays either)."""
    global _compile_refusal
    if device.kind in ("cpu", "cuda"):
        warm_profiler(device)
    needed = COMPILE_NEEDS_S[device.kind]
    _compile_refusal = (
        f"share too small for torch.compile: {share_s:.1f} s, needs ~{needed:.0f} s" if share_s < needed else None
    )
    if _compile_refusal is None:
        warm_compiler(device.torch_device)
    tokens, width = SHAPES[device.kind]
    element_bytes = 4 if fusion_dtype(device.kind) == "fp32" else 2
    return [
        CaseSpec(
            dtype=fusion_dtype(device.kind),
            shape={"tokens": tokens, "width": width},
            layout="row-major",
            options={"chain": "scale-shift-gelu-layernorm-residual"},
            bytes_moved=2.0 * tokens * width * element_bytes,  # the least a fused chain must move: x in, y out
        )
    ]


PROBE = Probe(
    name="fusion",
    description="Fusion: scale-shift -> GELU -> LayerNorm -> residual, eager vs torch.compile; time and launches.",
    cases=fusion_cases,
)


def _inputs(case: CaseSpec, device: Device) -> tuple[ChainInputs, ChainInputs]:
    seeded = chain_inputs(case.shape["tokens"], case.shape["width"])
    on_device = seeded.to(device.torch_device, TORCH_DTYPES[case.dtype])
    return on_device, on_device.to(device.torch_device, torch.float64)  # the reference sees the same values


def _reference(inputs: ChainInputs) -> torch.Tensor:
    return chain(inputs.x, inputs.scale, inputs.shift, inputs.gamma, inputs.beta)


@implementation("eager", baseline=True)
def eager(case: CaseSpec, device: Device) -> Bench:
    """The chain as written: one kernel per op."""
    inputs, reference = _inputs(case, device)

    def run() -> torch.Tensor:
        return chain(inputs.x, inputs.scale, inputs.shift, inputs.gamma, inputs.beta)

    for _ in range(_WARM_CALLS):
        run()
    launches = launches_per_call(run, device)
    return Bench(
        run=run,
        reference=lambda: _reference(reference),
        extra_metrics=lambda: {"launches_per_call": Metric(value=launches, unit="count")},
    )


@implementation("torch.compile", enabled=lambda device: device.kind in ("cpu", "cuda"))
def compiled(case: CaseSpec, device: Device) -> Bench:
    """torch.compile (inductor, default mode, static shapes) of the chain."""
    if _compile_refusal is not None:
        raise Unsupported(_compile_refusal)
    inputs, reference = _inputs(case, device)
    torch._dynamo.reset()
    compiled_chain = torch.compile(chain, dynamic=False)

    def run() -> torch.Tensor:
        return compiled_chain(inputs.x, inputs.scale, inputs.shift, inputs.gamma, inputs.beta)

    # Inductor's CPU kernels show in the profiler only when compiled with a record-function around each.
    with inductor_config.patch({"cpp.enable_kernel_profile": True}):
        started = time.perf_counter()
        run()
        device.synchronize()
        compile_s = time.perf_counter() - started
    for _ in range(_WARM_CALLS):
        run()
    launches = launches_per_call(run, device)
    metrics = {
        "launches_per_call": Metric(value=launches, unit="count"),
        "compile_s": Metric(value=compile_s, unit="s"),
    }
    return Bench(run=run, reference=lambda: _reference(reference), extra_metrics=lambda: dict(metrics))
