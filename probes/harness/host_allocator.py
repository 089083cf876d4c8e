"""Keep freed host memory in the process, so that a call's scratch buffers do not fault in fresh pages.

glibc's malloc serves large blocks with mmap and hands freed heap tops back to the kernel; both
thresholds move with the process's history (mallopt(3): M_MMAP_THRESHOLD starts at 128 KiB and
grows as mmapped blocks are freed; M_TRIM_THRESHOLD follows it at twice its value). So two runs of
the same case could differ in whether each call's N x N scores reuse resident pages or fault in
new, zeroed ones. Measured here (2 cores, fp32 naive attention at seq 1024): 0-670 minor faults
per call and 3.7-6.8 ms across fresh processes, against 0 faults and 3.5-4.8 ms with both
thresholds fixed. That spread, between processes and not within one, is what made A/A
comparisons call FASTER/SLOWER with nothing changed.

`hold_freed_memory` fixes both thresholds for the probe child (tuning guides make the same point
by swapping in jemalloc or tcmalloc; the mallopt route needs nothing installed).
`release_freed_memory` returns what earlier cases left free to the kernel, so each case's peak
RSS still starts from what is really held. Other C libraries have no such knobs: both are no-ops
there and say so.
"""

from __future__ import annotations

import ctypes
import functools
import sys

_M_TRIM_THRESHOLD = -1  # glibc malloc.h
_M_MMAP_THRESHOLD = -3
# Up to this size a freed block stays in the heap for the next call to reuse (glibc accepts it on
# 64-bit); larger blocks are mmapped, and so fault in on every call, the same way in every run.
HELD_UP_TO_BYTES = 1 << 30


@functools.cache  # looked up once per process: release_freed_memory runs before every case
def _glibc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt, libc.malloc_trim  # noqa: B018 - both exist on glibc only
        libc.gnu_get_libc_version  # noqa: B018
    except (OSError, AttributeError):
        return None
    return libc


def hold_freed_memory() -> str:
    """Fix malloc's mmap and trim thresholds for this process; a note of what was done."""
    libc = _glibc()
    if libc is None:
        return "host allocator unchanged (not glibc)"
    held = libc.mallopt(_M_MMAP_THRESHOLD, HELD_UP_TO_BYTES) == 1
    kept = libc.mallopt(_M_TRIM_THRESHOLD, HELD_UP_TO_BYTES) == 1
    if not (held and kept):
        return "host allocator unchanged (glibc refused mallopt)"
    return (
        f"glibc malloc: freed blocks up to {HELD_UP_TO_BYTES >> 20} MiB kept for reuse (mmap and trim thresholds fixed)"
    )


def release_freed_memory() -> bool:
    """Give free heap memory back to the kernel (malloc_trim); False where there is no glibc."""
    libc = _glibc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True
