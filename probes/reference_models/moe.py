"""Mixture of experts: causal attention blocks whose feed-forward is a top-k routed set of expert MLPs.

Routing as the large MoE codebases do it on one device: a linear router, softmax, top-k experts per
token with renormalized weights; token slots are sorted by expert (argsort), gathered
(index_select), run through each expert's MLP as one contiguous chunk, weighted and scattered back
(index_add_). The router runs in at least fp32 so a bf16 model routes as its float twin does.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F

from probes.reference_models.layers import MLP, TransformerBlock


@dataclass(frozen=True)
class MoEDims:
    """An MoE transformer's sizes and the batch of hidden states it is fed."""

    batch: int
    seq: int
    width: int
    heads: int
    layers: int
    experts: int
    top_k: int


class TopKMoE(nn.Module):
    """(..., width) -> same shape: each token through its top_k experts, weighted by the router."""

    def __init__(self, width: int, experts: int, top_k: int) -> None:
        super().__init__()
        if not 0 < top_k <= experts:
            raise ValueError(f"top_k must be in 1..{experts}, got {top_k}")
        self.top_k = top_k
        self.router = nn.Linear(width, experts, bias=False)
        self.experts = nn.ModuleList(MLP(width, 2 * width) for _ in range(experts))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Route, gather per expert, compute, scatter back."""
        shape = x.shape
        flat = x.reshape(-1, shape[-1])
        router_dtype = torch.promote_types(flat.dtype, torch.float32)
        logits = F.linear(flat.to(router_dtype), self.router.weight.to(router_dtype))
        weights, chosen = F.softmax(logits, dim=-1).topk(self.top_k, dim=-1)
        weights = (weights / weights.sum(dim=-1, keepdim=True)).to(flat.dtype)
        slots = chosen.flatten()
        order = slots.argsort(stable=True)
        counts = torch.bincount(slots, minlength=len(self.experts)).tolist()  # a host sync, as in real MoE code
        token_of_slot = order // self.top_k
        gathered = flat.index_select(0, token_of_slot)
        outputs = [expert(chunk) for expert, chunk in zip(self.experts, gathered.split(counts)) if chunk.numel()]
        expert_out = torch.cat(outputs) * weights.flatten()[order].unsqueeze(-1)
        combined = torch.zeros_like(flat).index_add_(0, token_of_slot, expert_out)
        return combined.view(shape)


class MoETransformer(nn.Module):
    """Hidden states (batch, seq, width) -> same shape, through causal blocks with MoE feed-forwards."""

    def __init__(self, dims: MoEDims) -> None:
        super().__init__()
        self.blocks = nn.ModuleList(
            TransformerBlock(dims.width, dims.heads, causal=True, ffn=TopKMoE(dims.width, dims.experts, dims.top_k))
            for _ in range(dims.layers)
        )
        self.norm = nn.LayerNorm(dims.width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """The blocks, then a final norm."""
        for block in self.blocks:
            x = block(x)
        return self.norm(x)
