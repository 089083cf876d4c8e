"""Turn a requested device ("auto", "cpu", "cuda", "cuda:1", "npu") into one this machine has.

Runs in the parent process: torch is imported only when an accelerator could be involved, so a
`--device cpu` run never pays for it here.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import Literal, cast

DeviceKind = Literal["cpu", "cuda", "npu"]
DEVICE_KINDS: tuple[DeviceKind, ...] = ("cpu", "cuda", "npu")


class DeviceUnavailable(Exception):
    """The requested device does not exist here; the message is one line and says why."""


def parse_device(name: str) -> tuple[DeviceKind, int | None]:
    """Split 'cuda:1' into ('cuda', 1); 'cpu' into ('cpu', None)."""
    kind, _, index_text = name.strip().lower().partition(":")
    if kind not in DEVICE_KINDS:
        raise DeviceUnavailable(f"unknown device {name!r}; use auto, cpu, cuda[:N] or npu[:N]")
    if not index_text:
        return kind, None
    if kind == "cpu" or not index_text.isdigit():
        raise DeviceUnavailable(f"bad device index in {name!r}")
    return kind, int(index_text)


def accelerator_backend(kind: DeviceKind) -> ModuleType | None:
    """torch.cuda or torch.npu (after importing torch_npu), or None when that stack is not installed."""
    if kind == "cpu":
        return None
    import torch

    if kind == "npu":
        if importlib.util.find_spec("torch_npu") is None:
            return None
        importlib.import_module("torch_npu")  # registers torch.npu as a side effect
    return cast(ModuleType | None, getattr(torch, kind, None))


def resolve_device(requested: str) -> str:
    """The concrete device to measure ('cpu', 'cuda:0', 'npu:0'); raise DeviceUnavailable if absent."""
    if requested.strip().lower() == "auto":
        for kind in ("cuda", "npu"):
            backend = accelerator_backend(kind)
            if backend is not None and backend.is_available():
                return f"{kind}:0"  # not current_device(): that would create a context in the parent
        return "cpu"
    kind, index = parse_device(requested)
    if kind == "cpu":
        return "cpu"
    backend = accelerator_backend(kind)
    if backend is None:
        stack = "torch_npu is not installed" if kind == "npu" else "this torch build has no CUDA support"
        raise DeviceUnavailable(f"device {requested!r} is not available: {stack}")
    if not backend.is_available():
        raise DeviceUnavailable(f"device {requested!r} is not available: torch.{kind}.is_available() is False")
    count = int(backend.device_count())
    chosen = 0 if index is None else index
    if chosen >= count:
        raise DeviceUnavailable(f"device {requested!r} is not available: this machine has {count} {kind} device(s)")
    return f"{kind}:{chosen}"
