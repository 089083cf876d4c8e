"""Tiled Triton matmul C = A @ B: grouped tile order, masked ragged edges, fp32 accumulation."""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from probes.kernels import (
    check_device,
    check_interpreter_dtype,
    device_guard,
    fp32_dot_precision,
    is_power_of_two,
    launchable,
)

__all__ = ["MATMUL_CONFIGS", "SUPPORTED_DTYPES", "triton_matmul"]

SUPPORTED_DTYPES: tuple[torch.dtype, ...] = (torch.float32, torch.float16, torch.bfloat16)

# Tile configs for a GPU benchmark to sweep in place of @triton.autotune (which needs a driver).
# Each dict is keyword arguments of triton_matmul. What each needs per target, compiled ahead of time
# (triton 3.9), is in probes/kernels/footprints.py: the 128x256x64 tile takes 96-144 KiB of shared
# memory for 16-bit inputs and 192 KiB for fp32 (ieee), beyond an A100's 163 KiB and an MI300X's
# 64 KiB per block, so a sweep asks probes.kernels.fit first and treats a launch-time OutOfResources
# (a GPU the table does not cover) as "config not applicable", not as a failure.
MATMUL_CONFIGS: list[dict[str, int]] = [
    {"block_m": 128, "block_n": 256, "block_k": 64, "group_m": 8, "num_warps": 8, "num_stages": 3},
    {"block_m": 128, "block_n": 128, "block_k": 64, "group_m": 8, "num_warps": 8, "num_stages": 3},
    {"block_m": 128, "block_n": 128, "block_k": 32, "group_m": 8, "num_warps": 4, "num_stages": 4},
    {"block_m": 128, "block_n": 64, "block_k": 32, "group_m": 8, "num_warps": 4, "num_stages": 4},
    {"block_m": 64, "block_n": 128, "block_k": 32, "group_m": 8, "num_warps": 4, "num_stages": 4},
    {"block_m": 64, "block_n": 64, "block_k": 32, "group_m": 8, "num_warps": 4, "num_stages": 3},
    {"block_m": 64, "block_n": 32, "block_k": 32, "group_m": 8, "num_warps": 2, "num_stages": 5},
    {"block_m": 32, "block_n": 64, "block_k": 32, "group_m": 8, "num_warps": 2, "num_stages": 5},
]

# tl.dot needs every operand dimension to be at least 16 on NVIDIA and AMD GPUs.
_MIN_BLOCK = 16


def _matmul_kernel(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    stride_am,
    stride_ak,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
    INPUT_PRECISION: tl.constexpr,
):
    # Left undecorated on purpose: probes.kernels.launchable picks interpreter or JIT at launch.
    pid = tl.program_id(0)
    # Plain arithmetic, not tl.cdiv: see probes.kernels.launchable for why no triton @jit helpers.
    num_pid_m = (M + BLOCK_M - 1) // BLOCK_M
    num_pid_n = (N + BLOCK_N - 1) // BLOCK_N
    # Walk GROUP_M row-tiles down a column band before moving right, so tiles running together
    # share A rows and B columns in L2 instead of streaming all of B for every row of tiles.
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = tl.minimum(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    # Rows/cols past the edge wrap around instead of being masked: loads stay unmasked along M and N
    # (vectorisable), and the wrapped values only land in output cells the store mask drops.
    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    # 64-bit row/col terms: M*stride may pass 2**31 elements on large problems.
    a_ptrs = a_ptr + offs_m[:, None].to(tl.int64) * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :].to(tl.int64) * stride_bn

    acc = tl.full((BLOCK_M, BLOCK_N), 0.0, dtype=tl.float32)
    for k in range(0, (K + BLOCK_K - 1) // BLOCK_K):
        # Only K is masked; zero-filled tails add nothing to the dot product.
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc, input_precision=INPUT_PRECISION)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk

    c = acc.to(c_ptr.dtype.element_ty)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + rows[:, None].to(tl.int64) * stride_cm + cols[None, :].to(tl.int64) * stride_cn
    tl.store(c_ptrs, c, mask=(rows[:, None] < M) & (cols[None, :] < N))


def _check_config(block_m: int, block_n: int, block_k: int, group_m: int, num_warps: int, num_stages: int) -> None:
    for name, value in (("block_m", block_m), ("block_n", block_n), ("block_k", block_k)):
        if not is_power_of_two(value) or value < _MIN_BLOCK:
            raise ValueError(f"triton_matmul: {name} must be a power of two >= {_MIN_BLOCK}, got {value}")
    if group_m < 1:
        raise ValueError(f"triton_matmul: group_m must be >= 1, got {group_m}")
    if not is_power_of_two(num_warps):
        raise ValueError(f"triton_matmul: num_warps must be a power of two, got {num_warps}")
    if num_stages < 1:
        raise ValueError(f"triton_matmul: num_stages must be >= 1, got {num_stages}")


def triton_matmul(
    a: torch.Tensor,
    b: torch.Tensor,
    *,
    block_m: int = 64,
    block_n: int = 64,
    block_k: int = 32,
    group_m: int = 8,
    num_warps: int = 4,
    num_stages: int = 3,
) -> torch.Tensor:
    """Return a @ b for a (M, K) and b (K, N) of one dtype (fp32/fp16/bf16), in that dtype.

    Accumulates in fp32; fp32 inputs use tf32 only where torch.backends.cuda.matmul.allow_tf32 is set.
    """
    if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor):
        raise ValueError("triton_matmul: a and b must be torch.Tensor")
    if a.dim() != 2 or b.dim() != 2:
        raise ValueError(f"triton_matmul: a and b must be 2-D, got shapes {tuple(a.shape)} and {tuple(b.shape)}")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"triton_matmul: inner dimensions differ: a is {tuple(a.shape)}, b is {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise ValueError(f"triton_matmul: a and b must share a dtype, got {a.dtype} and {b.dtype}")
    if a.dtype not in SUPPORTED_DTYPES:
        raise ValueError(f"triton_matmul: dtype {a.dtype} not supported; use one of {SUPPORTED_DTYPES}")
    check_device("triton_matmul", (a, b))
    check_interpreter_dtype("triton_matmul", a.dtype)
    _check_config(block_m, block_n, block_k, group_m, num_warps, num_stages)

    m, k = a.shape
    n = b.shape[1]
    if m == 0 or n == 0 or k == 0:
        # Nothing to launch; the kernel's `% M` wrap also needs M, N > 0.
        return torch.zeros((m, n), dtype=a.dtype, device=a.device)

    c = torch.empty((m, n), dtype=a.dtype, device=a.device)
    grid = (triton.cdiv(m, block_m) * triton.cdiv(n, block_n),)
    # None lets 16-bit inputs take the backend's default; precision only changes fp32 dots.
    precision = fp32_dot_precision() if a.dtype == torch.float32 else None
    with device_guard(a.device):
        launchable(_matmul_kernel)[grid](
            a,
            b,
            c,
            m,
            n,
            k,
            a.stride(0),
            a.stride(1),
            b.stride(0),
            b.stride(1),
            c.stride(0),
            c.stride(1),
            BLOCK_M=block_m,
            BLOCK_N=block_n,
            BLOCK_K=block_k,
            GROUP_M=group_m,
            INPUT_PRECISION=precision,
            num_warps=num_warps,
            num_stages=num_stages,
        )
    return c
