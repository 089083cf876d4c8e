"""One pass of a model as a workload runs it: inference (forward, no autograd) or a training step.

A training step is forward, a scalar loss (the mean square of the first output, so any model has one),
backward and an AdamW step (foreach): the optimizer's elementwise updates are part of a step's time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Literal, get_args

import torch
from torch import nn

Pass = Literal["forward", "train"]
PASSES: tuple[Pass, ...] = get_args(Pass)


def first_tensor(output: object) -> torch.Tensor:
    """The model's output, or the first tensor in a tuple, list or dict of outputs."""
    if isinstance(output, torch.Tensor):
        return output
    values: Sequence[object] = ()
    if isinstance(output, Mapping):
        values = list(output.values())
    elif isinstance(output, (tuple, list)):
        values = output
    for value in values:
        if isinstance(value, torch.Tensor):
            return value
    raise TypeError(f"the model returned no tensor (got {type(output).__name__})")


def training_loss(output: object) -> torch.Tensor:
    """Mean square of the first output, in at least fp32."""
    tensor = first_tensor(output)
    return tensor.to(torch.promote_types(tensor.dtype, torch.float32)).pow(2).mean()


def make_pass(module: nn.Module, inputs: Sequence[torch.Tensor], kind: Pass) -> Callable[[], torch.Tensor]:
    """A call running one pass: the output (forward) or the loss before the update (train), detached."""
    if kind == "forward":
        module.eval()

        def forward() -> torch.Tensor:
            with torch.no_grad():
                return first_tensor(module(*inputs))

        return forward
    module.train()
    optimizer = torch.optim.AdamW(module.parameters(), lr=1e-4, foreach=True)

    def step() -> torch.Tensor:
        optimizer.zero_grad(set_to_none=True)
        loss = training_loss(module(*inputs))
        loss.backward()
        optimizer.step()
        return loss.detach()

    return step


def reference_output(module: nn.Module, inputs: Sequence[torch.Tensor], kind: Pass) -> torch.Tensor:
    """What the first pass returns, from a float64 copy of the untrained module (the caller makes the copy)."""
    module.eval() if kind == "forward" else module.train()
    with torch.no_grad():
        output = module(*inputs)
    return training_loss(output) if kind == "train" else first_tensor(output)
