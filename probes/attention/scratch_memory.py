"""Memory one attention call needs beyond its inputs and output, and a guard against provoking an OOM.

The harness's per-case peak covers building the inputs too; the growth the method talks about
(O(N^2) materialized scores vs O(N) flash-style kernels) is clearest in what the call itself
allocates on top. Measured per allocation, not from the process RSS, whose peak hides
allocations that reuse memory malloc kept from earlier cases:
- CPU: the c10 allocator's events under torch's autograd profiler (profile_memory=True);
- CUDA / NPU: the caching allocator's peak counter, reset just before the call.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import psutil
import torch
from torch.profiler import DeviceType

from probes.harness.device import Device
from probes.registry import Unsupported

# Leave room for the allocator's rounding, fragmentation and whatever else runs on the device.
_FREE_MEMORY_USABLE = 0.8


def _accelerator_backend(device: Device) -> Any:
    return getattr(torch, device.kind)  # torch.cuda, or torch.npu once torch_npu is imported


def free_bytes(device: Device) -> int | None:
    """Memory free for new allocations on the device (host RAM for the CPU); None when unknown."""
    if device.kind == "cpu":
        return int(psutil.virtual_memory().available)
    mem_get_info = getattr(_accelerator_backend(device), "mem_get_info", None)
    if mem_get_info is None:
        return None
    free, _total = mem_get_info(device.torch_device.index)
    return int(free)


def require_free_memory(device: Device, needed_bytes: float, what: str) -> None:
    """Raise Unsupported when `what` would need more than the usable part of the free memory."""
    free = free_bytes(device)
    if free is not None and needed_bytes > _FREE_MEMORY_USABLE * free:
        raise Unsupported(
            f"{what} need about {needed_bytes / 2**30:.1f} GiB, more than {_FREE_MEMORY_USABLE:.0%} "
            f"of the {free / 2**30:.1f} GiB free on {device.name}"
        )


def _profiled_peak_bytes(call: Callable[[], torch.Tensor]) -> tuple[torch.Tensor, int | None]:
    from torch.autograd.profiler import profile  # torch.profiler.profile would cost ~1.4 s to start

    with profile(profile_memory=True) as recorded:
        output = call()
    try:
        events = [event for event in recorded.kineto_results.events() if event.name() == "[memory]"]
        events.sort(key=lambda event: event.start_ns())
        live = peak = 0
        for event in events:
            if event.device_type() == DeviceType.CPU:
                live += event.nbytes()  # negative for a free
                peak = max(peak, live)
    except (AttributeError, RuntimeError) as error:
        # The event accessors are not public API; without them the metric is left out, not guessed.
        print(f"attention probe: no memory events from the profiler ({error})", file=sys.stderr)
        return output, None
    return output, peak


def _allocator_peak_bytes(call: Callable[[], torch.Tensor], device: Device) -> tuple[torch.Tensor, int]:
    backend, index = _accelerator_backend(device), device.torch_device.index
    backend.synchronize(index)
    # The harness's tracker reads this counter when the case ends. Resetting it here only drops
    # transients of the steps before (inputs drawn in place have none; a first call's one-off
    # plans and workspaces): the inputs and workspaces are still allocated, so they stay in it.
    backend.reset_peak_memory_stats(index)
    before = int(backend.memory_allocated(index))
    output = call()
    backend.synchronize(index)
    return output, int(backend.max_memory_allocated(index)) - before


def scratch_bytes(call: Callable[[], torch.Tensor], device: Device) -> int | None:
    """Run `call` once: the most it held allocated at one time above what existed before, less its output.

    Call it after a warm call, so that one-off library workspaces and compiles are not counted.
    """
    if device.kind == "cpu":
        output, peak = _profiled_peak_bytes(call)
    else:
        output, peak = _allocator_peak_bytes(call, device)
    if peak is None:
        return None
    return max(0, peak - output.numel() * output.element_size())
