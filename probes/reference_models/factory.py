"""`build_reference_model(model_type, size)`: a seeded reference model and a function making its example inputs.

One model per profile `model_type` (probes.vocabulary.MODEL_TYPES); sizes go from `tiny` (tests, a few
milliseconds a pass on a CPU) to `large` (a GPU's worth of work). Weights and inputs are seeded, so
every build of one (model_type, size) is the same model fed the same inputs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Literal, NamedTuple, get_args

import torch
from torch import nn

from probes.reference_models.cnn import CNNDims, ResNet
from probes.reference_models.diffusion import UNet, UNetDims
from probes.reference_models.moe import MoEDims, MoETransformer
from probes.reference_models.multimodal import MultimodalDims, VisionLanguageModel
from probes.reference_models.transformer import DenseTransformer, TransformerDims, token_ids
from probes.vocabulary import MODEL_TYPES

ModelSize = Literal["tiny", "small", "medium", "large"]
MODEL_SIZES: tuple[ModelSize, ...] = get_args(ModelSize)
Inputs = tuple[torch.Tensor, ...]
_WEIGHT_SEED, _INPUT_SEED = 0, 1


class ReferenceModel(NamedTuple):
    """A model in eval mode on the CPU (fp32) and a function returning its seeded example inputs (CPU)."""

    module: nn.Module
    example_inputs: Callable[[], Inputs]


Dims = TransformerDims | MoEDims | MultimodalDims | UNetDims | CNNDims

DIMS: dict[str, dict[ModelSize, Dims]] = {
    "dense-transformer": {
        "tiny": TransformerDims(batch=2, seq=32, width=64, heads=4, layers=2, vocab=256),
        "small": TransformerDims(batch=4, seq=128, width=256, heads=4, layers=4, vocab=1024),
        "medium": TransformerDims(batch=8, seq=512, width=512, heads=8, layers=6, vocab=8192),
        "large": TransformerDims(batch=8, seq=1024, width=1024, heads=16, layers=8, vocab=32000),
    },
    "moe": {
        "tiny": MoEDims(batch=2, seq=32, width=64, heads=4, layers=2, experts=4, top_k=2),
        "small": MoEDims(batch=4, seq=128, width=256, heads=4, layers=2, experts=8, top_k=2),
        "medium": MoEDims(batch=8, seq=512, width=512, heads=8, layers=4, experts=8, top_k=2),
        "large": MoEDims(batch=8, seq=1024, width=1024, heads=16, layers=4, experts=16, top_k=2),
    },
    "multimodal": {
        "tiny": MultimodalDims(
            batch=2, image=32, patch=8, seq=16, width=64, heads=4, vision_layers=1, text_layers=2, vocab=256
        ),
        "small": MultimodalDims(
            batch=4, image=64, patch=8, seq=64, width=256, heads=4, vision_layers=2, text_layers=3, vocab=1024
        ),
        "medium": MultimodalDims(
            batch=8, image=224, patch=16, seq=256, width=512, heads=8, vision_layers=4, text_layers=6, vocab=8192
        ),
        "large": MultimodalDims(
            batch=8, image=336, patch=14, seq=512, width=1024, heads=16, vision_layers=6, text_layers=8, vocab=32000
        ),
    },
    "diffusion": {
        "tiny": UNetDims(batch=2, latent_channels=4, image=16, width=32, heads=2),
        "small": UNetDims(batch=2, latent_channels=4, image=32, width=64, heads=4),
        "medium": UNetDims(batch=4, latent_channels=4, image=64, width=128, heads=8),
        "large": UNetDims(batch=8, latent_channels=4, image=64, width=256, heads=8),
    },
    "cnn": {
        "tiny": CNNDims(batch=4, image=32, width=16, classes=10),
        "small": CNNDims(batch=8, image=64, width=32, classes=100),
        "medium": CNNDims(batch=32, image=112, width=64, classes=1000),
        "large": CNNDims(batch=64, image=224, width=64, classes=1000),
    },
}
assert set(DIMS) == set(MODEL_TYPES), "one reference model per profile model type"


class UnknownReferenceModel(ValueError):
    """A model type or size outside the vocabulary."""


def reference_dims(model_type: str, size: str) -> Dims:
    """The sizes of one reference model."""
    if model_type not in DIMS:
        raise UnknownReferenceModel(f"unknown model type {model_type!r}; known: {', '.join(DIMS)}")
    if size not in MODEL_SIZES:
        raise UnknownReferenceModel(f"unknown size {size!r}; known: {', '.join(MODEL_SIZES)}")
    return DIMS[model_type][size]


def reference_shape(model_type: str, size: str) -> dict[str, int]:
    """The model's sizes as named dimensions, for a CaseSpec's shape."""
    return dataclasses.asdict(reference_dims(model_type, size))


def _module(dims: Dims) -> nn.Module:
    if isinstance(dims, TransformerDims):
        return DenseTransformer(dims)
    if isinstance(dims, MoEDims):
        return MoETransformer(dims)
    if isinstance(dims, MultimodalDims):
        return VisionLanguageModel(dims)
    if isinstance(dims, UNetDims):
        return UNet(dims)
    return ResNet(dims)


def _inputs(dims: Dims) -> Inputs:
    generator = torch.Generator().manual_seed(_INPUT_SEED)
    if isinstance(dims, TransformerDims):
        return (token_ids(dims.batch, dims.seq, dims.vocab, _INPUT_SEED),)
    if isinstance(dims, MoEDims):
        return (torch.randn(dims.batch, dims.seq, dims.width, generator=generator),)
    if isinstance(dims, MultimodalDims):
        images = torch.randn(dims.batch, 3, dims.image, dims.image, generator=generator)
        return images, token_ids(dims.batch, dims.seq, dims.vocab, _INPUT_SEED)
    if isinstance(dims, UNetDims):
        latents = torch.randn(dims.batch, dims.latent_channels, dims.image, dims.image, generator=generator)
        return latents, torch.rand(dims.batch, generator=generator) * 1000.0
    return (torch.randn(dims.batch, 3, dims.image, dims.image, generator=generator),)


def build_reference_model(model_type: str, size: str = "tiny") -> ReferenceModel:
    """The seeded reference model of a profile model type (eval mode, fp32, CPU) and its example inputs."""
    dims = reference_dims(model_type, size)
    with torch.random.fork_rng(devices=[]):  # seeded weights without touching the caller's generator
        torch.manual_seed(_WEIGHT_SEED)
        module = _module(dims).eval()
    return ReferenceModel(module, lambda: _inputs(dims))
