"""Symmetric int8 quantization: one scale per tensor or per row, codes in [-127, 127], and back.

Symmetric with the range [-127, 127] (not -128) as torchao's int8 configs and most int8 kernels
use it, so that negating a code never overflows. Rows are the last dimension: an output channel of
a (out, in) weight, a token of a (tokens, features) activation.
"""

from __future__ import annotations

from typing import Literal

import torch

Granularity = Literal["per-tensor", "per-channel"]

INT8_MAX = 127


def symmetric_scale(values: torch.Tensor, granularity: Granularity) -> torch.Tensor:
    """absmax / 127 over the whole tensor, or per row (kept as a trailing dimension of size 1)."""
    if granularity == "per-tensor":
        absmax = values.abs().amax()
    else:
        absmax = values.abs().amax(dim=-1, keepdim=True)
    # An all-zero row would give scale 0 and 0/0 codes; any positive scale maps it to code 0.
    return absmax.clamp_min(torch.finfo(values.dtype).tiny) / INT8_MAX


def quantize(values: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    """int8 codes round(values / scale), clamped to [-127, 127]; ties round to even (torch.round)."""
    return torch.round(values / scale).clamp(-INT8_MAX, INT8_MAX).to(torch.int8)


def dequantize(codes: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    """The float values the codes stand for, in the scale's dtype."""
    return codes.to(scale.dtype) * scale


def fake_quantize(values: torch.Tensor, granularity: Granularity) -> torch.Tensor:
    """Quantize then dequantize: what an int8 kernel sees in place of `values`."""
    scale = symmetric_scale(values, granularity)
    return dequantize(quantize(values, scale), scale)
