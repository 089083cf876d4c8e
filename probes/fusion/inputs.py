"""The measured chain: a per-channel scale and shift, GELU, LayerNorm and a residual add.

Five kernels when run eagerly (mul, add, gelu, layer_norm, add), each reading and writing the whole
activation; a fusing compiler can do it in one or two passes over memory.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch.nn import functional as F


@dataclass(frozen=True)
class ChainInputs:
    """Activations (tokens, width) and the per-channel parameters."""

    x: torch.Tensor
    scale: torch.Tensor
    shift: torch.Tensor
    gamma: torch.Tensor
    beta: torch.Tensor

    def to(self, device: torch.device, dtype: torch.dtype) -> ChainInputs:
        """Every tensor on `device` in `dtype`."""
        return ChainInputs(
            *(tensor.to(device, dtype) for tensor in (self.x, self.scale, self.shift, self.gamma, self.beta))
        )


def chain_inputs(tokens: int, width: int) -> ChainInputs:
    """Seeded inputs on the CPU (fp32), outputs of order one."""
    generator = torch.Generator().manual_seed(0)
    return ChainInputs(
        x=torch.randn(tokens, width, generator=generator),
        scale=1.0 + 0.1 * torch.randn(width, generator=generator),
        shift=0.1 * torch.randn(width, generator=generator),
        gamma=1.0 + 0.1 * torch.randn(width, generator=generator),
        beta=0.1 * torch.randn(width, generator=generator),
    )


def chain(
    x: torch.Tensor, scale: torch.Tensor, shift: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor
) -> torch.Tensor:
    """layer_norm(gelu(x * scale + shift)) + x."""
    y = F.gelu(x * scale + shift)
    return F.layer_norm(y, (x.shape[-1],), gamma, beta) + x
