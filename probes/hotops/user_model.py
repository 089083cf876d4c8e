"""The user's own model for `--model module:factory`: the module is imported and the factory called.

The factory takes no arguments and returns (module, inputs): `inputs` is a tensor, a tuple or list of
tensors (the module's positional arguments), or a function returning one of those.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

import torch
from torch import nn

from probes.hotops.options import ModelSpecError, parse_model_spec
from probes.reference_models import ReferenceModel


def _as_inputs(value: object, spec: str) -> tuple[torch.Tensor, ...]:
    if isinstance(value, torch.Tensor):
        return (value,)
    if isinstance(value, (tuple, list)) and all(isinstance(item, torch.Tensor) for item in value):
        return tuple(value)
    raise ModelSpecError(
        f"--model {spec!r}: the inputs must be a tensor or a tuple of tensors, got {type(value).__name__}"
    )


def as_reference_model(built: object, spec: str) -> ReferenceModel:
    """A factory's (module, inputs) as a ReferenceModel; ModelSpecError naming the flag otherwise."""
    if not (isinstance(built, (tuple, list)) and len(built) == 2 and isinstance(built[0], nn.Module)):
        raise ModelSpecError(f"--model {spec!r}: the factory must return (torch.nn.Module, inputs)")
    module, inputs = built
    make: Callable[[], object] = inputs if callable(inputs) else (lambda: inputs)
    _as_inputs(make(), spec)  # fail now, with the flag's name, rather than mid-profile
    return ReferenceModel(module, lambda: _as_inputs(make(), spec))


def load_user_model(spec: str) -> ReferenceModel:
    """Import the spec's module (running its code) and call its factory."""
    module_name, factory_name = parse_model_spec(spec)
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ModelSpecError(f"--model {spec!r}: cannot import {module_name} ({error})") from None
    factory = getattr(module, factory_name, None)
    if not callable(factory):
        raise ModelSpecError(f"--model {spec!r}: {module_name} has no callable {factory_name}")
    return as_reference_model(factory(), spec)
