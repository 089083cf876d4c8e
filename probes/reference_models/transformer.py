"""Dense decoder-only transformer: token embedding, pre-norm causal blocks, final norm, LM head."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from probes.reference_models.layers import TransformerBlock


@dataclass(frozen=True)
class TransformerDims:
    """A causal language model's sizes and the batch it is fed."""

    batch: int
    seq: int
    width: int
    heads: int
    layers: int
    vocab: int


class DenseTransformer(nn.Module):
    """Token ids (batch, seq) -> logits (batch, seq, vocab)."""

    def __init__(self, dims: TransformerDims) -> None:
        super().__init__()
        self.embedding = nn.Embedding(dims.vocab, dims.width)
        self.blocks = nn.ModuleList(TransformerBlock(dims.width, dims.heads, causal=True) for _ in range(dims.layers))
        self.norm = nn.LayerNorm(dims.width)
        self.head = nn.Linear(dims.width, dims.vocab, bias=False)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """Causal LM logits."""
        x = self.embedding(tokens)
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x))


def token_ids(batch: int, seq: int, vocab: int, seed: int) -> torch.Tensor:
    """Seeded token ids on the CPU."""
    return torch.randint(0, vocab, (batch, seq), generator=torch.Generator().manual_seed(seed))
