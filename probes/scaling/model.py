"""The scaling probe's reference model: pre-norm residual MLP blocks in plain PyTorch, and its data.

Deliberately the probe's own (not probes/reference_models/): its size is part of the plan, and a
change elsewhere must not move the scaling numbers.
"""

from __future__ import annotations

import torch
from torch import nn

from probes.scaling.plan import ReferenceModelSpec

_SEED = 1234


class ResidualMLPBlock(nn.Module):
    """x + W2 gelu(W1 layernorm(x)): the feed-forward half of a transformer block."""

    def __init__(self, width: int, hidden: int) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.up = nn.Linear(width, hidden)
        self.down = nn.Linear(hidden, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """One residual step."""
        return x + self.down(nn.functional.gelu(self.up(self.norm(x))))


def build_model(spec: ReferenceModelSpec, device: torch.device) -> nn.Module:
    """The same initial weights in every process (seeded), on `device`."""
    with torch.random.fork_rng(devices=[]):  # seeded weights without touching the caller's generator
        torch.manual_seed(_SEED)
        model = nn.Sequential(*(ResidualMLPBlock(spec.width, spec.hidden) for _ in range(spec.blocks)))
    return model.to(device)


def batch_slice(
    spec: ReferenceModelSpec, world: int, rank: int, device: torch.device
) -> tuple[torch.Tensor, torch.Tensor]:
    """This rank's rows of the fixed global batch (inputs, targets): global_batch / world rows each."""
    rows = spec.global_batch // world
    generator = torch.Generator().manual_seed(_SEED + 1)
    inputs = torch.randn(spec.global_batch, spec.width, generator=generator)
    targets = torch.randn(spec.global_batch, spec.width, generator=generator)
    part = slice(rank * rows, (rank + 1) * rows)
    return inputs[part].contiguous().to(device), targets[part].contiguous().to(device)
