"""Layers the reference transformers share: SDPA self-attention, a GELU MLP, a pre-norm block."""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F


class SelfAttention(nn.Module):
    """Multi-head self-attention through SDPA (fused QKV projection, output projection)."""

    def __init__(self, width: int, heads: int, causal: bool) -> None:
        super().__init__()
        if width % heads:
            raise ValueError(f"width {width} is not a multiple of heads {heads}")
        self.heads, self.causal = heads, causal
        self.qkv = nn.Linear(width, 3 * width)
        self.out = nn.Linear(width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(batch, tokens, width) -> same shape."""
        batch, tokens, width = x.shape
        qkv = self.qkv(x).view(batch, tokens, 3, self.heads, width // self.heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4)  # each (batch, heads, tokens, head_dim)
        attended = F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
        return self.out(attended.transpose(1, 2).reshape(batch, tokens, width))


class MLP(nn.Module):
    """Linear -> GELU -> Linear, hidden = 4 x width by default."""

    def __init__(self, width: int, hidden: int | None = None) -> None:
        super().__init__()
        self.up = nn.Linear(width, hidden or 4 * width)
        self.down = nn.Linear(hidden or 4 * width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(..., width) -> same shape."""
        return self.down(F.gelu(self.up(x)))


class TransformerBlock(nn.Module):
    """x + attention(norm(x)), then x + ffn(norm(x)); the feed-forward is an MLP unless one is given."""

    def __init__(self, width: int, heads: int, *, causal: bool, ffn: nn.Module | None = None) -> None:
        super().__init__()
        self.attention_norm = nn.LayerNorm(width)
        self.attention = SelfAttention(width, heads, causal)
        self.ffn_norm = nn.LayerNorm(width)
        self.ffn = ffn if ffn is not None else MLP(width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(batch, tokens, width) -> same shape."""
        x = x + self.attention(self.attention_norm(x))
        return x + self.ffn(self.ffn_norm(x))
