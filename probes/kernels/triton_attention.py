"""Fused flash-style attention forward in Triton: online softmax over K/V blocks, no N x N matrix."""

from __future__ import annotations

import math
import numbers

import torch
import triton
import triton.language as tl

from probes.kernels import (
    check_device,
    check_interpreter_dtype,
    device_guard,
    fp32_dot_precision,
    is_power_of_two,
    jit_helper,
    launchable,
)

__all__ = ["SUPPORTED_DTYPES", "SUPPORTED_HEAD_DIMS", "triton_attention"]

SUPPORTED_DTYPES: tuple[torch.dtype, ...] = (torch.float32, torch.float16, torch.bfloat16)
SUPPORTED_HEAD_DIMS: tuple[int, ...] = (16, 32, 64, 128)

# tl.dot needs every operand dimension to be at least 16 on NVIDIA and AMD GPUs.
_MIN_BLOCK = 16
_LOG2E = 1.4426950408889634
# batch * heads is launch grid axis 1, which CUDA caps at 65535 (axis 0 keeps a head's query tiles
# adjacent so they share its K/V in L2).
_MAX_GRID_Y = 65535


def _attention_fwd_kernel(
    q_ptr,
    k_ptr,
    v_ptr,
    o_ptr,
    stride_qz,
    stride_qh,
    stride_qm,
    stride_qd,
    stride_kz,
    stride_kh,
    stride_kn,
    stride_kd,
    stride_vz,
    stride_vh,
    stride_vn,
    stride_vd,
    stride_oz,
    stride_oh,
    stride_om,
    stride_od,
    H,
    N_CTX,
    qk_scale,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    CAUSAL: tl.constexpr,
    INPUT_PRECISION: tl.constexpr,
    ROW_MAX: tl.constexpr,
    ROW_SUM: tl.constexpr,
):
    # Left undecorated on purpose: probes.kernels.launchable picks interpreter or JIT at launch.
    # ROW_MAX and ROW_SUM are tl.max and tl.sum in the launch's mode (probes.kernels.jit_helper).
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = (off_hz // H).to(tl.int64)
    off_h = (off_hz % H).to(tl.int64)
    q_base = q_ptr + off_z * stride_qz + off_h * stride_qh
    k_base = k_ptr + off_z * stride_kz + off_h * stride_kh
    v_base = v_ptr + off_z * stride_vz + off_h * stride_vh
    o_base = o_ptr + off_z * stride_oz + off_h * stride_oh

    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    row_ok = offs_m < N_CTX
    q = tl.load(q_base + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qd, mask=row_ok[:, None], other=0.0)

    # Running max and denominator in the exp2 domain (qk_scale folds in log2(e)): exp2 is the
    # native GPU instruction, exp is exp2 plus a multiply.
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.full([BLOCK_M], 0.0, dtype=tl.float32)
    acc = tl.full([BLOCK_M, HEAD_DIM], 0.0, dtype=tl.float32)

    # Causal rows in this tile never look past its last row, so later K/V blocks are skipped.
    if CAUSAL:
        hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX)
    else:
        hi = N_CTX
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        col_ok = cols < N_CTX
        k_t = tl.load(k_base + offs_d[:, None] * stride_kd + cols[None, :] * stride_kn, mask=col_ok[None, :], other=0.0)
        qk = tl.dot(q, k_t, input_precision=INPUT_PRECISION) * qk_scale
        keep = col_ok[None, :]
        if CAUSAL:
            keep = keep & (offs_m[:, None] >= cols[None, :])
        # Column 0 is kept for every row (padded rows included) and is in the first block, so m_i is
        # finite after it and (-inf) - (-inf) = NaN never occurs.
        qk = tl.where(keep, qk, float("-inf"))
        m_new = tl.maximum(m_i, ROW_MAX(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + ROW_SUM(p, 1)
        v = tl.load(v_base + cols[:, None] * stride_vn + offs_d[None, :] * stride_vd, mask=col_ok[:, None], other=0.0)
        # P goes to the input dtype so the PV product runs on the same tensor-core path as QK^T.
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None], input_precision=INPUT_PRECISION)
        m_i = m_new

    out = acc / l_i[:, None]
    o_ptrs = o_base + offs_m[:, None] * stride_om + offs_d[None, :] * stride_od
    tl.store(o_ptrs, out.to(o_ptr.dtype.element_ty), mask=row_ok[:, None])


def _check_inputs(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> None:
    for name, t in (("q", q), ("k", k), ("v", v)):
        if not isinstance(t, torch.Tensor):
            raise ValueError(f"triton_attention: {name} must be a torch.Tensor")
        if t.dim() != 4:
            raise ValueError(
                f"triton_attention: {name} must be 4-D (batch, heads, seq_len, head_dim), got shape {tuple(t.shape)}"
            )
    if not q.shape == k.shape == v.shape:
        raise ValueError(
            "triton_attention: q, k and v must have one shape (batch, heads, seq_len, head_dim), got "
            f"{tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)}"
        )
    if not q.dtype == k.dtype == v.dtype:
        raise ValueError(f"triton_attention: q, k and v must share a dtype, got {q.dtype}, {k.dtype}, {v.dtype}")
    if q.dtype not in SUPPORTED_DTYPES:
        raise ValueError(f"triton_attention: dtype {q.dtype} not supported; use one of {SUPPORTED_DTYPES}")
    if q.shape[-1] not in SUPPORTED_HEAD_DIMS:
        raise ValueError(f"triton_attention: head_dim must be one of {SUPPORTED_HEAD_DIMS}, got {q.shape[-1]}")
    check_device("triton_attention", (q, k, v))
    check_interpreter_dtype("triton_attention", q.dtype)


def _check_config(block_m: int, block_n: int, num_warps: int, num_stages: int) -> None:
    for name, value in (("block_m", block_m), ("block_n", block_n)):
        if not is_power_of_two(value) or value < _MIN_BLOCK:
            raise ValueError(f"triton_attention: {name} must be a power of two >= {_MIN_BLOCK}, got {value}")
    if not is_power_of_two(num_warps):
        raise ValueError(f"triton_attention: num_warps must be a power of two, got {num_warps}")
    if num_stages < 1:
        raise ValueError(f"triton_attention: num_stages must be >= 1, got {num_stages}")


def triton_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    sm_scale: float | None = None,
    block_m: int = 64,
    block_n: int = 64,
    num_warps: int = 4,
    num_stages: int = 2,
) -> torch.Tensor:
    """Return softmax(q @ k^T * sm_scale [+ causal mask]) @ v for (batch, heads, seq_len, head_dim) inputs.

    sm_scale defaults to 1/sqrt(head_dim); causal masking is top-left aligned (q and k share seq_len).
    """
    _check_inputs(q, k, v)
    _check_config(block_m, block_n, num_warps, num_stages)
    batch, heads, seq_len, head_dim = q.shape
    if sm_scale is None:
        sm_scale = 1.0 / math.sqrt(head_dim)
    if isinstance(sm_scale, bool) or not isinstance(sm_scale, numbers.Real) or not math.isfinite(sm_scale):
        raise ValueError(f"triton_attention: sm_scale must be a finite number, got {sm_scale!r}")

    if batch * heads > _MAX_GRID_Y:
        raise ValueError(f"triton_attention: batch * heads must be <= {_MAX_GRID_Y}, got {batch * heads}")

    out = torch.empty((batch, heads, seq_len, head_dim), dtype=q.dtype, device=q.device)
    if out.numel() == 0:
        return out

    grid = (triton.cdiv(seq_len, block_m), batch * heads)
    # None lets 16-bit inputs take the backend's default; precision only changes fp32 dots.
    precision = fp32_dot_precision() if q.dtype == torch.float32 else None
    with device_guard(q.device):
        launchable(_attention_fwd_kernel)[grid](
            q,
            k,
            v,
            out,
            *q.stride(),
            *k.stride(),
            *v.stride(),
            *out.stride(),
            heads,
            seq_len,
            float(sm_scale) * _LOG2E,
            HEAD_DIM=head_dim,
            BLOCK_M=block_m,
            BLOCK_N=block_n,
            CAUSAL=bool(causal),
            INPUT_PRECISION=precision,
            ROW_MAX=jit_helper(tl.max),
            ROW_SUM=jit_helper(tl.sum),
            num_warps=num_warps,
            num_stages=num_stages,
        )
    return out
