"""Kernel launches per call, counted from torch.profiler events.

On CUDA: the device kernels the call ran (copies and memsets excluded). On the CPU there are no
launches as such, so a "launch" is one pass of compute over memory: an ATen op doing work (the
innermost op of a chain of dispatch wrappers; views and allocations excluded), or one kernel that
inductor generated (profiled by name through inductor's `cpp.enable_kernel_profile`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from torch.autograd import DeviceType
from torch.profiler import ProfilerActivity, profile

from probes.harness.device import Device

# ATen ops that touch no data: views, metadata, allocation. Not kernels.
NOT_KERNELS = frozenset(
    f"aten::{name}"
    for name in (
        "view", "reshape", "_reshape_alias", "_unsafe_view", "as_strided", "t", "transpose", "permute", "expand",
        "unsqueeze", "squeeze", "select", "slice", "unbind", "narrow", "split", "chunk", "flatten", "detach",
        "alias", "empty", "empty_like", "empty_strided", "resize_", "lift_fresh", "result_type", "to",
        "contiguous", "_has_compatible_shallow_copy_type",
    )
)  # fmt: skip
_INDUCTOR_KERNEL = re.compile(r"^(graph_\d+_)?(cpp_fused|cpp_|triton_)")
_DEVICE_COPIES = ("Memcpy", "Memset")


def _is_compute(name: str) -> bool:
    return (name.startswith("aten::") and name not in NOT_KERNELS) or bool(_INDUCTOR_KERNEL.match(name))


def _cpu_launches(events: Sequence[object]) -> int:
    """Innermost compute events: one whose descendants hold no compute event counts once."""

    def count(event: object) -> int:
        inner = sum(count(child) for child in getattr(event, "cpu_children", []))
        if inner == 0 and _is_compute(getattr(event, "name", "")):
            return 1
        return inner

    roots = [event for event in events if getattr(event, "cpu_parent", None) is None]
    return sum(count(root) for root in roots)


def _device_launches(events: Sequence[object]) -> int:
    return sum(
        1
        for event in events
        if getattr(event, "device_type", None) == DeviceType.CUDA
        and not str(getattr(event, "name", "")).startswith(_DEVICE_COPIES)
    )


def launches_per_call(run: Callable[[], object], device: Device, calls: int = 3) -> float:
    """Mean launches per call over `calls` profiled calls (the caller warms the call up first)."""
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.kind == "cuda" else [])
    with profile(activities=activities) as profiler:
        for _ in range(calls):
            run()
        device.synchronize()
    events = list(profiler.events())
    launches = _device_launches(events) if device.kind == "cuda" else _cpu_launches(events)
    return launches / calls
