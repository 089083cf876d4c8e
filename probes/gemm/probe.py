"""GEMM probe: square and LLM-shaped (decode, prefill) matmuls by cuBLAS/oneDNN/CANN, Triton and torch.compile.

Every shape runs in fp32, fp16 and bf16 (and fp8 through torch._scaled_mm where CUDA has fp8
tensor cores), so one run answers "which dtype, which library, which shape regime" on this machine.
TFLOP/s and % of peak come from the harness and the runner (CaseSpec.flops = 2*m*n*k).

torch.compile'd matmul: one cold, shape-specialised compile per case, and its compile time.

Each case starts from a reset dynamo with the FX graph cache bypassed, so `compile_s` neither
depends on the cases compiled before it (no automatic dynamic shapes after a recompile) nor on
what earlier runs left on disk. The compiler's one-time start (importing dynamo and inductor, the
first compile of the process) is paid by `warm_up_compiler` while planning, outside every case.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import torch

from probes.environment.models import Dtype
from probes.gemm.inputs import (
    device_fp8_format,
    dims,
    dtype_unsupported_reason,
    float64_product,
    fp8_inputs,
    fp8_unsupported_reason,
    matmul_inputs,
)
from probes.gemm.sizing import DECODE_ROWS, GemmShape, gemm_shapes
from probes.gemm.triton_tiles import DEFAULT_TILE, LARGE_TILES, SKINNY_TILE, tile_name, triton_bench
from probes.harness.device import Device
from probes.models import Metric, OptionValue
from probes.registry import Bench, CaseSpec, Probe, Unsupported, implementation

DTYPES: tuple[Dtype, ...] = ("fp32", "fp16", "bf16")
_ELEMENT_BYTES: dict[Dtype, int] = {"fp32": 4, "fp16": 2, "bf16": 2}
ROW_MAJOR = "row-major"
FP8_LAYOUT = "a-row-major,b-col-major"  # cuBLASLt's fp8 GEMM takes B transposed in memory
FP8_OPTIONS: dict[str, str] = {"scaling": "per-tensor", "out_dtype": "bf16"}
COMPILING_DEVICES = ("cpu", "cuda")  # where torch.compile and Triton run (the CPU through its interpreter)


def shape_cases(shape: GemmShape, *, with_fp8: bool = True) -> list[CaseSpec]:
    """The shape in fp8 (e4m3 in, bf16 out; when asked), fp32, fp16 and bf16, in that order."""
    size = {"m": shape.m, "n": shape.n, "k": shape.k}
    inputs, outputs = shape.m * shape.k + shape.k * shape.n, shape.m * shape.n
    cases: list[CaseSpec] = []
    if with_fp8:
        options: dict[str, OptionValue] = {"kind": shape.kind, **FP8_OPTIONS}
        fp8_bytes = float(inputs + 2 * outputs)  # one byte per input element, bf16 out
        cases.append(CaseSpec("fp8", size, FP8_LAYOUT, options, flops=shape.flops, bytes_moved=fp8_bytes))
    # bf16 last: on CPU its case holds the torch.compile pair, which wants the larger parts late in a plan.
    for dtype in DTYPES:
        cases.append(
            CaseSpec(
                dtype=dtype,
                shape=size,
                layout=ROW_MAJOR,
                options={"kind": shape.kind},
                flops=shape.flops,
                bytes_moved=float(_ELEMENT_BYTES[dtype] * (inputs + outputs)),
            )
        )
    return cases


def compiled_on_cpu(case: CaseSpec) -> bool:
    """The two CPU cases torch.compile runs on: bf16 decode with m=1 and bf16 prefill."""
    kind = case.options.get("kind")
    return case.dtype == "bf16" and (kind == "prefill" or (kind == "decode" and case.shape["m"] == DECODE_ROWS[0]))


def gemm_cases(device: Device, share_s: float) -> list[CaseSpec]:
    """Every dtype on the shapes that fit share_s; warms torch.compile up first (sizing allows for it)."""
    if device.kind in COMPILING_DEVICES:
        warm_up_compiler(device)
    # Where fp8 cannot run, one fp8 case records why, rather than one per shape.
    fp8_runs = fp8_unsupported_reason(device) is None
    shapes = gemm_shapes(device.kind, share_s)
    cases = [case for index, shape in enumerate(shapes) for case in shape_cases(shape, with_fp8=fp8_runs or index == 0)]
    if device.kind == "cpu":
        # Last, where the harness's even split of the time left has grown: a CPU compile takes seconds.
        cases.sort(key=compiled_on_cpu)
    return cases


PROBE = Probe(
    name="gemm",
    description="Dense GEMM, square and LLM-shaped: torch.matmul (cuBLAS/oneDNN/CANN) vs Triton vs torch.compile.",
    cases=gemm_cases,
    # The timer pauses the collector while it samples, but collections still come between cases, inside their
    # parts of the share (warmup, checks, building inputs); with dynamo, inductor and triton loaded a full one
    # takes ~0.2 s on a small CPU: frozen after planning, the heap leaves them only the cases' objects to walk.
    freezes_heap=True,
)


def _not_fp8(case: CaseSpec) -> bool:
    return case.dtype != "fp8"


def _compiles(device: Device) -> bool:
    return device.kind in COMPILING_DEVICES


def _on_cuda(device: Device) -> bool:
    return device.kind == "cuda"


def _kinds(*kinds: str) -> Callable[[CaseSpec], bool]:
    return lambda case: case.dtype != "fp8" and case.options.get("kind") in kinds


def _check_dtype(case: CaseSpec, device: Device) -> None:
    reason = dtype_unsupported_reason(case.dtype, device)
    if reason is not None:
        raise Unsupported(reason)


@implementation("torch.matmul", baseline=True, supports=_not_fp8)
def torch_matmul(case: CaseSpec, device: Device) -> Bench:
    _check_dtype(case, device)
    a, b = matmul_inputs(case, device)
    return Bench(run=lambda: torch.matmul(a, b), reference=float64_product(a, b, device))


@implementation("torch.compile", enabled=_compiles, supports=_not_fp8)
def torch_compile(case: CaseSpec, device: Device) -> Bench:
    if device.kind == "cpu" and not compiled_on_cpu(case):
        raise Unsupported("compile budget: on CPU only the bf16 decode (m=1) and prefill cases are compiled")
    _check_dtype(case, device)
    a, b = matmul_inputs(case, device)
    run, compile_s = compile_matmul(a, b, device)
    return Bench(
        run=run,
        reference=float64_product(a, b, device),
        extra_metrics=lambda: {"compile_s": Metric(value=compile_s, unit="s")},
    )


# Triton: the kernel's default tile everywhere (interpreted on CPU), a sweep of tiles on CUDA.
@implementation(f"triton.matmul-{tile_name(DEFAULT_TILE)}", enabled=_compiles, supports=_not_fp8)
def triton_default_tile(case: CaseSpec, device: Device) -> Bench:
    return triton_bench(case, device, DEFAULT_TILE)


@implementation(f"triton.matmul-{tile_name(LARGE_TILES[0])}", enabled=_on_cuda, supports=_kinds("square", "prefill"))
def triton_largest_tile(case: CaseSpec, device: Device) -> Bench:
    return triton_bench(case, device, LARGE_TILES[0])


@implementation(f"triton.matmul-{tile_name(LARGE_TILES[1])}", enabled=_on_cuda, supports=_kinds("square", "prefill"))
def triton_large_tile(case: CaseSpec, device: Device) -> Bench:
    return triton_bench(case, device, LARGE_TILES[1])


@implementation(f"triton.matmul-{tile_name(SKINNY_TILE)}", enabled=_on_cuda, supports=_kinds("decode"))
def triton_skinny_tile(case: CaseSpec, device: Device) -> Bench:
    return triton_bench(case, device, SKINNY_TILE)


def _scaled_mm_call(a8: torch.Tensor, b8: torch.Tensor, scale_a: torch.Tensor, scale_b: torch.Tensor) -> torch.Tensor:
    out = torch._scaled_mm(a8, b8, scale_a=scale_a, scale_b=scale_b, out_dtype=torch.bfloat16)
    return out[0] if isinstance(out, tuple) else out  # torch < 2.4 returned (out, amax)


@implementation("torch._scaled_mm", baseline=True, supports=lambda case: case.dtype == "fp8")
def scaled_mm(case: CaseSpec, device: Device) -> Bench:
    reason = fp8_unsupported_reason(device)
    if reason is not None:
        raise Unsupported(reason)
    fp8_name, _ = device_fp8_format(device)
    a8, b8, scale_a, scale_b = fp8_inputs(case, device, getattr(torch, fp8_name or "float8_e4m3fn"))
    try:
        _scaled_mm_call(a8, b8, scale_a, scale_b)  # cuBLASLt's shape rules are checked here, outside the timing
        device.synchronize()
    except RuntimeError as error:
        if "divisible" not in str(error):
            raise
        first_line = str(error).strip().splitlines()[0]
        raise Unsupported(f"torch._scaled_mm refuses {'x'.join(map(str, dims(case)))}: {first_line}") from None
    return Bench(
        run=lambda: _scaled_mm_call(a8, b8, scale_a, scale_b),
        # The same fp8 values, dequantized: only accumulation and the bf16 output rounding can differ.
        reference=lambda: (a8.double() * scale_a.double()) @ (b8.double() * scale_b.double()),
    )


_WARM_UP_SIZE = 16


# Compile in this process: inductor's default pool of worker processes spends seconds of CPU importing
# torch in the background, which would slow every case timed meanwhile. A patch, not an assignment: it
# holds while compiling only (the first call compiles), and the process's setting is as it was after.
_IN_PROCESS = {"compile_threads": 1}


def _compile() -> Callable[[torch.Tensor, torch.Tensor], torch.Tensor]:
    import torch._dynamo

    torch._dynamo.reset()
    # dynamic=False: a deployment with fixed shapes (padded batches) gets kernels for exactly them.
    return torch.compile(torch.matmul, dynamic=False)


def warm_up_compiler(device: Device) -> None:
    """Compile and run one tiny matmul so the first measured case does not pay the compiler's start-up.

    A compiler that fails here fails again, with its reason, in each torch.compile case; the
    other implementations must not lose their plan to it, so any error is ignored here.
    """
    import torch._inductor.config as inductor_config

    try:
        x = torch.ones(_WARM_UP_SIZE, _WARM_UP_SIZE, device=device.torch_device)
        with inductor_config.patch(_IN_PROCESS):
            _compile()(x, x)
        device.synchronize()
    except Exception:  # noqa: BLE001 - reported by the cases, see the docstring
        pass


def compile_matmul(a: torch.Tensor, b: torch.Tensor, device: Device) -> tuple[Callable[[], torch.Tensor], float]:
    """A zero-argument call of the compiled a @ b, and the seconds its first (compiling) call took."""
    import torch._inductor.config as inductor_config

    compiled = _compile()
    began = time.perf_counter()
    with inductor_config.patch({**_IN_PROCESS, "fx_graph_cache": False}):
        compiled(a, b)
        device.synchronize()
    compile_s = time.perf_counter() - began
    return lambda: compiled(a, b), compile_s
