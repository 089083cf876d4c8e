"""Seeded q, k, v for one case, and the float64 reference on the rows the numeric check looks at.

The reference covers only the last (batch, head) and at most CHECKED_ROWS query rows, evenly
spread and ending with the last row: its cost grows as rows x N, not N^2, so it stays affordable
on a CPU at long lengths. The last (batch, head) is where a wrong batch or head stride shows;
the spread rows hold causal rows of every length, from a few keys to all N.
"""

from __future__ import annotations

import math

import torch

from probes.harness.device import Device
from probes.registry import CaseSpec

CHECKED_ROWS = 64

AttentionInputs = tuple[torch.Tensor, torch.Tensor, torch.Tensor]  # q, k, v

TORCH_DTYPES: dict[str, torch.dtype] = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def attention_inputs(case: CaseSpec, device: Device) -> AttentionInputs:
    """q, k, v of shape (batch, heads, seq, head_dim), standard normal, drawn on the device in the case's dtype.

    With the 1/sqrt(head_dim) scale, standard normal q and k give logits of unit variance and
    outputs of order one (less for long non-causal rows, which average many values of v). Drawn
    in place on the device, so building them leaves no transient above the inputs themselves.
    """
    shape = case.shape
    dims = (shape["batch"], shape["heads"], shape["seq"], shape["head_dim"])
    generator = torch.Generator(device=device.torch_device).manual_seed(0)
    dtype = TORCH_DTYPES[case.dtype]
    q, k, v = (torch.randn(dims, generator=generator, device=device.torch_device, dtype=dtype) for _ in range(3))
    return q, k, v


def checked_rows(seq: int) -> slice:
    """At most CHECKED_ROWS query rows, evenly spaced, the last one included (a view, not a copy)."""
    step = max(1, seq // CHECKED_ROWS)
    return slice((seq - 1) % step, seq, step)


def checked_part(output: torch.Tensor, rows: slice) -> torch.Tensor:
    """The part of a (batch, heads, seq, head_dim) output the reference covers."""
    return output[-1, -1, rows]


def _reference_device(device: torch.device) -> torch.device:
    # float64 matmuls run on CPUs and CUDA/ROCm GPUs; NPUs do not offer them, so compute on the host.
    return device if device.type in ("cpu", "cuda") else torch.device("cpu")


def reference_rows(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, rows: slice, causal: bool) -> torch.Tensor:
    """float64 softmax(q k^T / sqrt(head_dim) [causal mask]) v on checked_part's rows."""
    where = _reference_device(q.device)
    seq, head_dim = q.shape[-2], q.shape[-1]
    q_rows = checked_part(q, rows).to(where, torch.float64)
    keys, values = (tensor[-1, -1].to(where, torch.float64) for tensor in (k, v))
    scores = (q_rows @ keys.transpose(0, 1)) / math.sqrt(head_dim)
    if causal:
        row_index = torch.arange(seq, device=where)[rows]
        key_index = torch.arange(seq, device=where)
        scores = scores.masked_fill(key_index[None, :] > row_index[:, None], float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
