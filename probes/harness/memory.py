"""Peak memory of one case: the device allocator's peak on accelerators, the process's RSS peak on CPU.

On Linux the CPU peak is the kernel's own high-water mark (VmHWM), reset by writing "5" to
/proc/self/clear_refs; where that is not permitted, a thread samples RSS every millisecond, which
can miss a spike shorter than that. Each result says which method produced it.
"""

from __future__ import annotations

import threading
from pathlib import Path
from types import ModuleType, TracebackType

import psutil

from probes.models import MemoryMethod, MemoryPeak

_CLEAR_REFS = Path("/proc/self/clear_refs")
_STATUS = Path("/proc/self/status")
_SAMPLE_PERIOD_S = 0.001


def _status_kib(field: str) -> int | None:
    try:
        for line in _STATUS.read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _reset_high_water_mark() -> bool:
    try:
        _CLEAR_REFS.write_text("5")
    except OSError:
        return False
    return _status_kib("VmHWM") is not None


class CpuPeakTracker:
    """Context manager: the process's peak RSS while the block ran."""

    def __init__(self) -> None:
        self.result = MemoryPeak(peak_bytes=None, baseline_bytes=None, method="none", scope="none")
        self._process = psutil.Process()
        self._use_hwm = False
        self._peak = 0
        self._stop = threading.Event()
        self._sampler: threading.Thread | None = None

    def __enter__(self) -> CpuPeakTracker:
        baseline = self._process.memory_info().rss
        self._baseline = baseline
        self._use_hwm = _reset_high_water_mark()
        if not self._use_hwm:
            self._peak = baseline
            self._sampler = threading.Thread(target=self._sample, name="rss-sampler", daemon=True)
            self._sampler.start()
        return self

    def _sample(self) -> None:
        while not self._stop.wait(_SAMPLE_PERIOD_S):
            self._peak = max(self._peak, self._process.memory_info().rss)

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        if self._use_hwm:
            peak = _status_kib("VmHWM")
            self.result = MemoryPeak(
                peak_bytes=peak, baseline_bytes=self._baseline, method="linux.vmhwm", scope="process"
            )
            return
        self._stop.set()
        if self._sampler is not None:
            self._sampler.join()
        peak = max(self._peak, self._process.memory_info().rss)
        self.result = MemoryPeak(
            peak_bytes=peak, baseline_bytes=self._baseline, method="psutil.rss-sampling", scope="process"
        )


class AllocatorPeakTracker:
    """Context manager: the device caching allocator's peak (torch.cuda / torch.npu max_memory_allocated)."""

    def __init__(self, backend: ModuleType, kind: str, index: int) -> None:
        self.result = MemoryPeak(peak_bytes=None, baseline_bytes=None, method="none", scope="none")
        self._backend, self._kind, self._index = backend, kind, index

    def __enter__(self) -> AllocatorPeakTracker:
        self._backend.synchronize(self._index)
        self._backend.reset_peak_memory_stats(self._index)
        self._baseline = int(self._backend.memory_allocated(self._index))
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self._backend.synchronize(self._index)
        peak = int(self._backend.max_memory_allocated(self._index))
        method: MemoryMethod = "npu.max_memory_allocated" if self._kind == "npu" else "cuda.max_memory_allocated"
        self.result = MemoryPeak(
            peak_bytes=peak, baseline_bytes=self._baseline, method=method, scope="device-allocator"
        )
