"""CNN: a small ResNet (conv-BN-ReLU stem, three stages of basic residual blocks, pooling, classifier)."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F


@dataclass(frozen=True)
class CNNDims:
    """Image batch and side, the first stage's channels (doubled per stage) and the classes."""

    batch: int
    image: int
    width: int
    classes: int


class BasicBlock(nn.Module):
    """conv3x3-BN-ReLU, conv3x3-BN, plus the (projected when the shape changes) input, ReLU."""

    def __init__(self, channels_in: int, channels_out: int, stride: int) -> None:
        super().__init__()
        self.conv_1 = nn.Conv2d(channels_in, channels_out, 3, stride=stride, padding=1, bias=False)
        self.bn_1 = nn.BatchNorm2d(channels_out)
        self.conv_2 = nn.Conv2d(channels_out, channels_out, 3, padding=1, bias=False)
        self.bn_2 = nn.BatchNorm2d(channels_out)
        self.shortcut: nn.Module = nn.Identity()
        if stride != 1 or channels_in != channels_out:
            self.shortcut = nn.Sequential(
                nn.Conv2d(channels_in, channels_out, 1, stride=stride, bias=False), nn.BatchNorm2d(channels_out)
            )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(batch, channels_in, h, w) -> (batch, channels_out, h / stride, w / stride)."""
        h = F.relu(self.bn_1(self.conv_1(x)))
        return F.relu(self.bn_2(self.conv_2(h)) + self.shortcut(x))


class ResNet(nn.Module):
    """Images (batch, 3, image, image) -> logits (batch, classes)."""

    def __init__(self, dims: CNNDims) -> None:
        super().__init__()
        width = dims.width
        self.stem = nn.Sequential(nn.Conv2d(3, width, 3, padding=1, bias=False), nn.BatchNorm2d(width), nn.ReLU())
        self.stages = nn.Sequential(
            BasicBlock(width, width, 1), BasicBlock(width, 2 * width, 2), BasicBlock(2 * width, 4 * width, 2)
        )
        self.classifier = nn.Linear(4 * width, dims.classes)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        """Class logits."""
        features = self.stages(self.stem(images))
        return self.classifier(features.mean(dim=(2, 3)))
