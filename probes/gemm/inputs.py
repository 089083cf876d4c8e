"""Seeded GEMM inputs scaled so outputs are of order one, their float64 reference, and what a device supports.

a (m x k) ~ N(0, 1/k) and b (k x n) ~ N(0, 1) give outputs ~ N(0, 1), which the absolute+relative
tolerances of probes/tolerance.py assume.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch

from probes.harness.device import Device
from probes.registry import CaseSpec

TORCH_DTYPES: dict[str, torch.dtype] = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
CUDA_FP8_CAPABILITY = (8, 9)  # Ada and Hopper onwards: fp8 tensor cores (float8_e4m3fn, the OCP format)
# ROCm: gfx940/941/942 (MI300) support FP8-FNUZ only, not OCP FP8 -- HIP "FP8 Numbers", ROCm 6.2:
# https://rocm.docs.amd.com/projects/HIP/en/docs-6.2.0/reference/fp8_numbers.html (checked 2026-12-01).
# Other AMD architectures are not charted here: their fp8 case is skipped with that reason.
ROCM_FNUZ_ARCHS = ("gfx940", "gfx941", "gfx942")


def _generator(device: Device) -> torch.Generator:
    # Seeded on the device itself where it has a generator: building a 4096 x 4096 operand on the
    # host and copying it over would cost more than the timed calls.
    where = device.torch_device if device.kind == "cuda" else torch.device("cpu")
    return torch.Generator(device=where).manual_seed(0)


def _normal(rows: int, cols: int, generator: torch.Generator) -> torch.Tensor:
    return torch.randn(rows, cols, generator=generator, device=generator.device)


def dims(case: CaseSpec) -> tuple[int, int, int]:
    """(m, n, k) of a GEMM case."""
    return case.shape["m"], case.shape["n"], case.shape["k"]


def matmul_inputs(case: CaseSpec, device: Device) -> tuple[torch.Tensor, torch.Tensor]:
    """Row-major a (m x k) scaled by 1/sqrt(k) and b (k x n), in the case's dtype, on the device."""
    m, n, k = dims(case)
    generator = _generator(device)
    a = _normal(m, k, generator) / math.sqrt(k)
    b = _normal(k, n, generator)
    dtype = TORCH_DTYPES[case.dtype]
    return a.to(device.torch_device, dtype), b.to(device.torch_device, dtype)


def fp8_format(
    hip_version: str | None, rocm_arch: str | None, capability: tuple[int, int] | None
) -> tuple[str | None, str]:
    """(the torch fp8 e4m3 dtype's name this GPU runs, why) or (None, why it runs none we measure).

    CUDA: float8_e4m3fn from compute capability 8.9. ROCm: MI300's gfx94x run the FNUZ variant
    (float8_e4m3fnuz: no infinities, one more exponent value, largest finite 240 instead of 448).
    """
    if hip_version is not None:
        arch = (rocm_arch or "").split(":")[0]  # 'gfx942:sramecc+:xnack-' -> 'gfx942'
        if arch in ROCM_FNUZ_ARCHS:
            return "float8_e4m3fnuz", f"ROCm {arch}: FP8-FNUZ (e4m3fnuz)"
        return None, f"ROCm {arch or 'GPU'}: its fp8 format is not charted here (MI300's gfx94x run e4m3fnuz)"
    if capability is None:
        return None, "no CUDA compute capability"
    if tuple(capability) < CUDA_FP8_CAPABILITY:
        return None, f"compute capability {capability[0]}.{capability[1]} has no fp8 tensor cores (needs >= 8.9)"
    return "float8_e4m3fn", f"compute capability {capability[0]}.{capability[1]}: e4m3fn"


def device_fp8_format(device: Device) -> tuple[str | None, str]:
    """`fp8_format` for the GPU behind `device` (read from torch; CUDA and ROCm builds alike)."""
    if device.kind != "cuda":
        return None, f"fp8 GEMM is measured only on CUDA and ROCm GPUs, not on {device.kind}"
    hip = torch.version.hip
    arch = getattr(torch.cuda.get_device_properties(device.torch_device), "gcnArchName", None) if hip else None
    capability = None if hip else torch.cuda.get_device_capability(device.torch_device)
    return fp8_format(hip, arch, capability)


def fp8_inputs(
    case: CaseSpec, device: Device, fp8_dtype: torch.dtype = torch.float8_e4m3fn
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """a, b in `fp8_dtype` (e4m3fn, or e4m3fnuz on MI300) with per-tensor float32 scales (a = a8 * scale_a);
    b column-major as cuBLASLt and hipBLASLt want."""
    m, n, k = dims(case)
    generator = _generator(device)
    a = _normal(m, k, generator) / math.sqrt(k)
    b = _normal(k, n, generator)
    # Scale each tensor so its largest magnitude lands on the format's largest finite value.
    largest = torch.finfo(fp8_dtype).max
    scale_a, scale_b = a.abs().max() / largest, b.abs().max() / largest
    a8 = (a / scale_a).to(fp8_dtype)
    b8 = (b / scale_b).t().contiguous().to(fp8_dtype).t()  # (k x n) with column-major strides
    place = device.torch_device
    return a8.to(place), b8.to(place), scale_a.float().to(place), scale_b.float().to(place)


def float64_product(a: torch.Tensor, b: torch.Tensor, device: Device) -> Callable[[], torch.Tensor]:
    """The reference a @ b in float64 on the same inputs (on the host for NPUs, which lack float64 matmul)."""
    if device.kind == "npu":
        return lambda: a.cpu().double() @ b.cpu().double()
    return lambda: a.double() @ b.double()


def dtype_unsupported_reason(dtype: str, device: Device) -> str | None:
    """Why torch cannot multiply this dtype on this device, or None when it can."""
    if dtype != "bf16" or device.kind == "cpu":
        return None
    backend = getattr(torch, device.kind, None)
    is_supported = getattr(backend, "is_bf16_supported", None)
    if is_supported is not None and not is_supported():
        return f"bf16 matmul is not supported by this {device.kind} device"
    return None


def fp8_unsupported_reason(device: Device) -> str | None:
    """Why torch._scaled_mm cannot run fp8 on this device, or None when it can."""
    if not hasattr(torch, "_scaled_mm") or not hasattr(torch, "float8_e4m3fn"):
        return f"torch {torch.__version__} has no torch._scaled_mm"
    name, why = device_fp8_format(device)
    return None if name is not None else why
