"""Multimodal: a ViT-style patch encoder whose image tokens prefix a causal text decoder (LLaVA-like)."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from probes.reference_models.layers import TransformerBlock


@dataclass(frozen=True)
class MultimodalDims:
    """Image and text sizes: image side/patch give (image // patch)^2 image tokens."""

    batch: int
    image: int
    patch: int
    seq: int
    width: int
    heads: int
    vision_layers: int
    text_layers: int
    vocab: int

    @property
    def image_tokens(self) -> int:
        """Patches per image."""
        return (self.image // self.patch) ** 2


class VisionEncoder(nn.Module):
    """(batch, 3, image, image) -> (batch, patches, width): strided-conv patchify, position, bidirectional blocks."""

    def __init__(self, dims: MultimodalDims) -> None:
        super().__init__()
        self.patchify = nn.Conv2d(3, dims.width, kernel_size=dims.patch, stride=dims.patch)
        self.position = nn.Parameter(torch.randn(1, dims.image_tokens, dims.width) * 0.02)
        self.blocks = nn.ModuleList(
            TransformerBlock(dims.width, dims.heads, causal=False) for _ in range(dims.vision_layers)
        )
        self.norm = nn.LayerNorm(dims.width)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        """Image tokens."""
        x = self.patchify(images).flatten(2).transpose(1, 2) + self.position
        for block in self.blocks:
            x = block(x)
        return self.norm(x)


class VisionLanguageModel(nn.Module):
    """(images, token ids) -> logits over the text positions: image tokens projected and prepended to the text."""

    def __init__(self, dims: MultimodalDims) -> None:
        super().__init__()
        self.vision = VisionEncoder(dims)
        self.projector = nn.Linear(dims.width, dims.width)
        self.embedding = nn.Embedding(dims.vocab, dims.width)
        self.blocks = nn.ModuleList(
            TransformerBlock(dims.width, dims.heads, causal=True) for _ in range(dims.text_layers)
        )
        self.norm = nn.LayerNorm(dims.width)
        self.head = nn.Linear(dims.width, dims.vocab, bias=False)

    def forward(self, images: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
        """Logits for the text tokens only."""
        image_tokens = self.projector(self.vision(images))
        x = torch.cat([image_tokens, self.embedding(tokens)], dim=1)
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x[:, image_tokens.shape[1] :]))
