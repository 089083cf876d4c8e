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
_FP8_MAX = 448.0  # largest finite float8_e4m3fn


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


def fp8_inputs(case: CaseSpec, device: Device) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """a, b in float8_e4m3fn with per-tensor float32 scales (a = a8 * scale_a); b column-major as cuBLASLt wants."""
    m, n, k = dims(case)
    generator = _generator(device)
    a = _normal(m, k, generator) / math.sqrt(k)
    b = _normal(k, n, generator)
    # Scale each tensor so its largest magnitude lands on e4m3's largest finite value.
    scale_a, scale_b = a.abs().max() / _FP8_MAX, b.abs().max() / _FP8_MAX
    a8 = (a / scale_a).to(torch.float8_e4m3fn)
    b8 = (b / scale_b).t().contiguous().to(torch.float8_e4m3fn).t()  # (k x n) with column-major strides
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
    """Why torch._scaled_mm cannot run e4m3 on this device, or None when it can."""
    if device.kind != "cuda":
        return f"fp8 GEMM is measured only on CUDA GPUs of compute capability >= 8.9, not on {device.kind}"
    if torch.version.hip is not None:
        return "fp8 here is CUDA's float8_e4m3fn; ROCm GPUs use the e4m3fnuz format"
    if not hasattr(torch, "_scaled_mm") or not hasattr(torch, "float8_e4m3fn"):
        return f"torch {torch.__version__} has no torch._scaled_mm"
    capability = torch.cuda.get_device_capability(device.torch_device)
    if capability < (8, 9):
        return f"compute capability {capability[0]}.{capability[1]} has no fp8 tensor cores (needs >= 8.9)"
    return None
