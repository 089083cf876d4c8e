"""Seeded inputs of the int8 cases: GEMM operands, an MLP block, and tensors with outlier channels.

Everything is drawn on the CPU from a fixed seed and then moved, so every device sees the same
values. The outliers follow what transformers show: a few feature channels of activations tens of
times larger than the rest, tokens whose activation norms differ by an order of magnitude or
more, and weight output channels whose ranges differ widely.

Symmetric int8 quantization: one scale per tensor or per row, codes in [-127, 127], and back.

Symmetric with the range [-127, 127] (not -128) as torchao's int8 configs and most int8 kernels
use it, so that negating a code never overflows. Rows are the last dimension: an output channel of
a (out, in) weight, a token of a (tokens, features) activation.
"""

from __future__ import annotations

import functools
import math
from typing import Literal

import torch

from probes.harness.device import Device
from probes.registry import CaseSpec

TORCH_DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}


def reference_device(device: Device) -> torch.device:
    """Where float64 references run: on the device, except NPUs, whose cube units have no float64."""
    return torch.device("cpu") if device.kind == "npu" else device.torch_device


def gemm_operands(case: CaseSpec, device: Device) -> tuple[torch.Tensor, torch.Tensor]:
    """a (m x k) and b (k x n): uniform int8 codes for int8 cases, else normal with a scaled by 1/sqrt(k)."""
    generator = torch.Generator().manual_seed(0)
    m, n, k = case.shape["m"], case.shape["n"], case.shape["k"]
    if case.dtype == "int8":
        a = torch.randint(-127, 128, (m, k), generator=generator, dtype=torch.int8)
        b = torch.randint(-127, 128, (k, n), generator=generator, dtype=torch.int8)
    else:
        dtype = TORCH_DTYPES[case.dtype]
        a = (torch.randn(m, k, generator=generator) / math.sqrt(k)).to(dtype)
        b = torch.randn(k, n, generator=generator).to(dtype)
    return a.to(device.torch_device), b.to(device.torch_device)


@functools.lru_cache(maxsize=1)
def _mlp_parameters(d_model: int, d_hidden: int) -> tuple[torch.Tensor, ...]:
    """fp32 weights ~ N(0, 1/fan_in) and small biases; drawn once per child (seconds at the widest sizes)."""
    generator = torch.Generator().manual_seed(1)
    parameters: list[torch.Tensor] = []
    for fan_in, fan_out in ((d_model, d_hidden), (d_hidden, d_model)):
        parameters.append(torch.randn(fan_out, fan_in, generator=generator) / math.sqrt(fan_in))
        parameters.append(0.02 * torch.randn(fan_out, generator=generator))
    return tuple(parameters)


def mlp_block(d_model: int, d_hidden: int) -> torch.nn.Sequential:
    """A fresh Linear -> GELU -> Linear in fp32 on the CPU, weights ~ N(0, 1/fan_in): activations of order one."""
    block = torch.nn.Sequential(torch.nn.Linear(d_model, d_hidden), torch.nn.GELU(), torch.nn.Linear(d_hidden, d_model))
    first_weight, first_bias, second_weight, second_bias = _mlp_parameters(d_model, d_hidden)
    with torch.no_grad():
        for linear, weight, bias in ((block[0], first_weight, first_bias), (block[2], second_weight, second_bias)):
            assert isinstance(linear, torch.nn.Linear)
            linear.weight.copy_(weight)
            linear.bias.copy_(bias)
    # Inference only: without gradients the timed calls build no autograd graph.
    return block.requires_grad_(False)


def mlp_input(tokens: int, d_model: int) -> torch.Tensor:
    """Standard-normal activations (tokens x d_model) on the CPU."""
    return torch.randn(tokens, d_model, generator=torch.Generator().manual_seed(2))


def outlier_weight(out_features: int, in_features: int, outlier_channels: int, outlier_gain: float) -> torch.Tensor:
    """A (out, in) fp32 weight: row ranges spread log-normally, `outlier_channels` rows `outlier_gain` x larger.

    Normalised so that max |w| = 1: the coarsest per-tensor step is then exactly 1/127.
    """
    generator = torch.Generator().manual_seed(3)
    row_scale = torch.exp(0.5 * torch.randn(out_features, 1, generator=generator))
    row_scale[torch.randperm(out_features, generator=generator)[:outlier_channels]] *= outlier_gain
    weight = torch.randn(out_features, in_features, generator=generator) * row_scale / math.sqrt(in_features)
    return weight / weight.abs().max()


def layernorm_activations(tokens: int, features: int, outlier_channels: int, outlier_gain: float) -> torch.Tensor:
    """(tokens x features) fp32 activations as they reach a LayerNorm in a transformer's residual stream.

    `outlier_channels` features hold a large value of fixed sign (about `outlier_gain` x the others);
    token norms spread log-uniformly over 1.5 decades, as residual-stream norms do across tokens.
    """
    generator = torch.Generator().manual_seed(4)
    values = torch.randn(tokens, features, generator=generator)
    channels = torch.randperm(features, generator=generator)[:outlier_channels]
    signs = torch.where(torch.rand(outlier_channels, generator=generator) < 0.5, -1.0, 1.0)
    spread = 1.0 + 0.1 * torch.randn(tokens, outlier_channels, generator=generator)
    values[:, channels] = outlier_gain * signs * spread
    token_scale = 10.0 ** (-1.5 * torch.rand(tokens, 1, generator=generator))
    return values * token_scale


def layernorm_affine(features: int) -> tuple[torch.Tensor, torch.Tensor]:
    """A trained-looking LayerNorm weight (about 1) and bias (about 0), fp32 on the CPU."""
    generator = torch.Generator().manual_seed(5)
    weight = 1.0 + 0.1 * torch.randn(features, generator=generator)
    bias = 0.1 * torch.randn(features, generator=generator)
    return weight, bias


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
