"""The measured model: one small pre-norm transformer block (LayerNorm, SDPA self-attention, GELU MLP)."""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F


class TransformerBlock(nn.Module):
    """x + attn(norm(x)), then + mlp(norm(x)); attention is causal so right padding never leaks in."""

    def __init__(self, width: int, heads: int) -> None:
        super().__init__()
        if width % heads:
            raise ValueError(f"width {width} is not a multiple of heads {heads}")
        self.heads = heads
        self.attention_norm = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.attention_out = nn.Linear(width, width)
        self.mlp_norm = nn.LayerNorm(width)
        self.mlp_in = nn.Linear(width, 4 * width)
        self.mlp_out = nn.Linear(4 * width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(batch, length, width) -> same shape."""
        batch, length, width = x.shape
        qkv = self.qkv(self.attention_norm(x)).view(batch, length, 3, self.heads, width // self.heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4)  # each (batch, heads, length, head_dim)
        # Causal, as in an LLM prefill: token i sees only tokens <= i, so padding appended after the
        # real tokens changes none of their outputs and bucketing needs no attention mask.
        attended = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.attention_out(attended.transpose(1, 2).reshape(batch, length, width))
        return x + self.mlp_out(F.gelu(self.mlp_in(self.mlp_norm(x))))


def make_block(width: int, heads: int, device: torch.device, dtype: torch.dtype = torch.float32) -> TransformerBlock:
    """A block with seeded weights (the same for every implementation and dtype), in eval mode on `device`."""
    with torch.random.fork_rng(devices=[]):  # seeded weights without touching the caller's generator
        torch.manual_seed(0)
        block = TransformerBlock(width, heads).eval()
    return block.to(device=device, dtype=dtype)
