"""One data-parallel training step of the reference model, three ways: alone, DDP, and DDP without overlap.

- alone (world 1): the model unwrapped, the whole global batch: the serial time strong scaling is measured against;
- DDP: DistributedDataParallel's bucketed all-reduce, launched during backward (overlaps compute);
- no overlap: DDP under `no_sync()`, then one all-reduce of all gradients, flattened, after backward.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
import torch.distributed as dist
from torch import nn
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors
from torch.nn.parallel import DistributedDataParallel

from probes.scaling.model import batch_slice, build_model
from probes.scaling.plan import ReferenceModelSpec

_LEARNING_RATE = 1e-3  # small: the weights barely move, so every sample does the same work


def _device_ids(device: torch.device) -> list[int] | None:
    return [device.index] if device.type != "cpu" and device.index is not None else None


def training_step(
    spec: ReferenceModelSpec,
    device: torch.device,
    *,
    world: int,
    rank: int,
    group: dist.ProcessGroup | None,
    overlap: bool = True,
) -> Callable[[], None]:
    """A closure running one step on this rank's slice of the global batch; world 1 runs the model unwrapped."""
    model = build_model(spec, device)
    inputs, targets = batch_slice(spec, world, rank, device)
    if world == 1:
        return _step(model, inputs, targets, backward=torch.Tensor.backward)
    wrapped = DistributedDataParallel(model, device_ids=_device_ids(device), process_group=group)
    if overlap:
        return _step(wrapped, inputs, targets, backward=torch.Tensor.backward)
    parameters = [parameter for parameter in wrapped.parameters() if parameter.requires_grad]

    def backward_then_all_reduce(loss: torch.Tensor) -> None:
        with wrapped.no_sync():  # DDP skips its own all-reduce; one flat all-reduce follows backward
            loss.backward()
        gradients = [parameter.grad for parameter in parameters if parameter.grad is not None]
        flat = _flatten_dense_tensors(gradients)
        dist.all_reduce(flat, group=group)
        flat.div_(world)
        for gradient, synced in zip(gradients, _unflatten_dense_tensors(flat, gradients)):
            gradient.copy_(synced)

    return _step(wrapped, inputs, targets, backward=backward_then_all_reduce)


def _step(
    model: nn.Module, inputs: torch.Tensor, targets: torch.Tensor, backward: Callable[[torch.Tensor], None]
) -> Callable[[], None]:
    optimizer = torch.optim.SGD(model.parameters(), lr=_LEARNING_RATE)

    def step() -> None:
        optimizer.zero_grad(set_to_none=False)
        backward(nn.functional.mse_loss(model(inputs), targets))
        optimizer.step()

    return step
