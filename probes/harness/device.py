"""The device a probe measures on: how to synchronize, time a call, flush the cache and read peak memory.

CPU calls are synchronous, so a wall clock around a block of calls is exact. CUDA and NPU calls
are asynchronous: each call is timed with a pair of device events recorded on the stream, after
zeroing a buffer larger than L2 so every call starts with a cold cache.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from types import ModuleType

import torch

from probes.harness.device_choice import DeviceKind, accelerator_backend, parse_device
from probes.harness.memory import AllocatorPeakTracker, CpuPeakTracker

_MIN_FLUSH_BYTES = 256 * 1024**2  # what triton.testing.do_bench zeroes; above every current L2
# Ascend 910B's L2; torch_npu does not report the size, so assume the largest current part.
_NPU_ASSUMED_L2_BYTES = 192 * 1024**2


class Device:
    """The CPU; accelerators subclass it. `kind` is what `enabled=` predicates look at."""

    kind: DeviceKind = "cpu"
    flushes_cache = False
    flush_note: str | None = None  # how the flush was sized (accelerators), once the first timing has run

    def __init__(self) -> None:
        self.name = "cpu"
        self.torch_device = torch.device("cpu")

    def synchronize(self) -> None:
        """Wait for queued work; nothing to wait for on the CPU."""

    def time_calls(self, run: Callable[[], object], samples: int, calls_per_sample: int) -> list[float]:
        """Seconds per call for each of `samples` blocks of `calls_per_sample` calls."""
        times: list[float] = []
        for _ in range(samples):
            start = time.perf_counter_ns()
            for _ in range(calls_per_sample):
                run()
            times.append((time.perf_counter_ns() - start) / calls_per_sample / 1e9)
        return times

    def memory_tracker(self) -> CpuPeakTracker | AllocatorPeakTracker:
        """A context manager whose `result` is the peak memory of the block."""
        return CpuPeakTracker()


class AcceleratorDevice(Device):
    """A CUDA (or ROCm, which torch also calls cuda) or Ascend NPU device, driven through torch."""

    flushes_cache = True

    def __init__(self, kind: DeviceKind, index: int, backend: ModuleType) -> None:
        self.kind = kind
        self.index = index
        self.name = f"{kind}:{index}"
        self.torch_device = torch.device(kind, index)
        self._backend = backend
        backend.set_device(index)
        self._flush_buffer: torch.Tensor | None = None  # allocated at the first timing, not for untimed cases

    def _flush_bytes(self) -> int:
        """max(2 x L2, 256 MiB); the L2 size read from the backend's device properties where it reports one
        (torch.cuda does; torch_npu may not), else assumed and `flush_note` says so."""
        reported = int(getattr(self._backend.get_device_properties(self.index), "L2_cache_size", 0) or 0)
        if reported > 0:
            l2_bytes, self.flush_note = reported, f"L2 of {reported:,} bytes read from {self.kind} device properties"
        else:
            l2_bytes = _NPU_ASSUMED_L2_BYTES
            self.flush_note = f"L2 size not reported by {self.kind}: assumed {l2_bytes / 1024**2:g} MiB (Ascend 910B)"
        return max(2 * l2_bytes, _MIN_FLUSH_BYTES)

    def synchronize(self) -> None:
        """Wait for everything queued on this device."""
        self._backend.synchronize(self.index)

    def time_calls(self, run: Callable[[], object], samples: int, calls_per_sample: int = 1) -> list[float]:
        """One call per sample between two events; the flush is queued before the start event."""
        if self._flush_buffer is None:
            self._flush_buffer = torch.empty(self._flush_bytes(), dtype=torch.int8, device=self.torch_device)
        starts = [self._backend.Event(enable_timing=True) for _ in range(samples)]
        ends = [self._backend.Event(enable_timing=True) for _ in range(samples)]
        for start, end in zip(starts, ends):
            self._flush_buffer.zero_()  # outside the timed region: it runs before `start` on the stream
            start.record()
            run()
            end.record()
        self.synchronize()
        return [start.elapsed_time(end) / 1e3 for start, end in zip(starts, ends)]

    def memory_tracker(self) -> CpuPeakTracker | AllocatorPeakTracker:
        """The caching allocator's peak, reset on entry."""
        return AllocatorPeakTracker(self._backend, self.kind, self.index)


def open_device(name: str) -> Device:
    """The Device for a resolved name such as 'cpu' or 'cuda:0' (see device_choice.resolve_device)."""
    kind, index = parse_device(name)
    if kind == "cpu":
        return Device()
    backend = accelerator_backend(kind)
    if backend is None or not backend.is_available():
        raise RuntimeError(f"device {name} is not available in the probe process")
    return AcceleratorDevice(kind, index if index is not None else 0, backend)
