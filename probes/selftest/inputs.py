"""Seeded inputs for the self-test cases, shared by its real and its fault implementations."""

from __future__ import annotations

import math

import torch

from probes.harness.device import Device
from probes.registry import CaseSpec


def matmul_inputs(case: CaseSpec, device: Device) -> tuple[torch.Tensor, torch.Tensor]:
    """a (m x k) scaled by 1/sqrt(k) so outputs are of order one, as the tolerance table assumes; b (k x n)."""
    generator = torch.Generator().manual_seed(0)
    m, n, k = case.shape["m"], case.shape["n"], case.shape["k"]
    a = torch.randn(m, k, generator=generator) / math.sqrt(k)
    b = torch.randn(k, n, generator=generator)
    return a.to(device.torch_device), b.to(device.torch_device)


def add_inputs(case: CaseSpec, device: Device) -> tuple[torch.Tensor, torch.Tensor]:
    """Two standard-normal vectors of length n."""
    generator = torch.Generator().manual_seed(1)
    a, b = (torch.randn(case.shape["n"], generator=generator) for _ in range(2))
    return a.to(device.torch_device), b.to(device.torch_device)
