"""All-reduce bandwidth arithmetic, as nccl-tests defines it.

algbw = bytes / time. busbw = algbw * 2(n-1)/n for all-reduce: a ring all-reduce moves each byte
2(n-1)/n times over the slowest link, so busbw is comparable with the link's peak whatever the
process count. Source: NVIDIA nccl-tests, doc/PERFORMANCE.md, "AllReduce" under "Bus bandwidth"
(https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md).
"""

from __future__ import annotations

NCCL_TESTS_PERFORMANCE = "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md"


def algorithm_bandwidth(message_bytes: int, seconds: float) -> float:
    """Bytes per second as the application sees it: message size over the time of one all-reduce."""
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    return message_bytes / seconds


def all_reduce_bus_factor(world: int) -> float:
    """2(n-1)/n: the bytes a ring all-reduce sends over each link, per byte of message."""
    if world < 1:
        raise ValueError(f"world must be at least 1, got {world}")
    return 2.0 * (world - 1) / world


def all_reduce_bus_bandwidth(message_bytes: int, seconds: float, world: int) -> float:
    """nccl-tests' busbw for all-reduce, bytes per second."""
    return algorithm_bandwidth(message_bytes, seconds) * all_reduce_bus_factor(world)
