"""Diffusion: a two-level U-Net on latents (conv + GroupNorm residual blocks, self-attention at the low
resolution, a sinusoidal time embedding added to every block), as in Stable Diffusion's denoiser.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F

from probes.reference_models.layers import SelfAttention

_GROUPS = 8  # GroupNorm groups; every channel count below is a multiple of it


@dataclass(frozen=True)
class UNetDims:
    """Latent batch, channels and side; `width` is the first level's channel count (the second has twice)."""

    batch: int
    latent_channels: int
    image: int
    width: int
    heads: int


def timestep_embedding(timesteps: torch.Tensor, channels: int) -> torch.Tensor:
    """Sinusoidal embedding (batch,) -> (batch, channels), as in DDPM."""
    half = channels // 2
    frequencies = torch.exp(
        -math.log(10000.0) * torch.arange(half, device=timesteps.device, dtype=timesteps.dtype) / half
    )
    angles = timesteps[:, None] * frequencies[None]
    return torch.cat([angles.cos(), angles.sin()], dim=-1)


class ResBlock(nn.Module):
    """GroupNorm -> SiLU -> conv3x3, plus the time embedding, GroupNorm -> SiLU -> conv3x3, plus the skip."""

    def __init__(self, channels_in: int, channels_out: int, time_width: int) -> None:
        super().__init__()
        self.norm_in = nn.GroupNorm(_GROUPS, channels_in)
        self.conv_in = nn.Conv2d(channels_in, channels_out, 3, padding=1)
        self.time = nn.Linear(time_width, channels_out)
        self.norm_out = nn.GroupNorm(_GROUPS, channels_out)
        self.conv_out = nn.Conv2d(channels_out, channels_out, 3, padding=1)
        self.skip = nn.Conv2d(channels_in, channels_out, 1) if channels_in != channels_out else nn.Identity()

    def forward(self, x: torch.Tensor, time: torch.Tensor) -> torch.Tensor:
        """(batch, channels_in, h, w) -> (batch, channels_out, h, w)."""
        h = self.conv_in(F.silu(self.norm_in(x)))
        h = h + self.time(time)[:, :, None, None]
        h = self.conv_out(F.silu(self.norm_out(h)))
        return self.skip(x) + h


class AttentionBlock(nn.Module):
    """GroupNorm, then self-attention over the h*w positions, plus the input."""

    def __init__(self, channels: int, heads: int) -> None:
        super().__init__()
        self.norm = nn.GroupNorm(_GROUPS, channels)
        self.attention = SelfAttention(channels, heads, causal=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(batch, channels, h, w) -> same shape."""
        batch, channels, height, width = x.shape
        tokens = self.norm(x).flatten(2).transpose(1, 2)
        attended = self.attention(tokens).transpose(1, 2).reshape(batch, channels, height, width)
        return x + attended


class UNet(nn.Module):
    """(latents, timesteps) -> predicted noise, same shape as the latents."""

    def __init__(self, dims: UNetDims) -> None:
        super().__init__()
        width, time_width = dims.width, 4 * dims.width
        self.time_width = width
        self.time_mlp = nn.Sequential(nn.Linear(width, time_width), nn.SiLU(), nn.Linear(time_width, time_width))
        self.conv_in = nn.Conv2d(dims.latent_channels, width, 3, padding=1)
        self.down_1 = ResBlock(width, width, time_width)
        self.downsample = nn.Conv2d(width, width, 3, stride=2, padding=1)
        self.down_2 = ResBlock(width, 2 * width, time_width)
        self.mid_attention = AttentionBlock(2 * width, dims.heads)
        self.mid = ResBlock(2 * width, 2 * width, time_width)
        self.up_2 = ResBlock(4 * width, 2 * width, time_width)
        self.upsample = nn.Conv2d(2 * width, 2 * width, 3, padding=1)
        self.up_1 = ResBlock(3 * width, width, time_width)
        self.norm_out = nn.GroupNorm(_GROUPS, width)
        self.conv_out = nn.Conv2d(width, dims.latent_channels, 3, padding=1)

    def forward(self, latents: torch.Tensor, timesteps: torch.Tensor) -> torch.Tensor:
        """One denoising step's noise prediction."""
        time = self.time_mlp(timestep_embedding(timesteps, self.time_width))
        skip_1 = self.down_1(self.conv_in(latents), time)
        skip_2 = self.down_2(self.downsample(skip_1), time)
        h = self.mid(self.mid_attention(skip_2), time)
        h = self.up_2(torch.cat([h, skip_2], dim=1), time)
        h = self.upsample(F.interpolate(h, scale_factor=2.0, mode="nearest"))
        h = self.up_1(torch.cat([h, skip_1], dim=1), time)
        return self.conv_out(F.silu(self.norm_out(h)))
