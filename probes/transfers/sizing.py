"""The transfers probe's cases: copy sizes per direction, and one pipeline case, sized to the share.

Pure arithmetic (no torch), so it is tested on any machine; on a CPU the same cases are planned and
each is skipped with the reason, so the evidence shows what could not run here.
"""

from __future__ import annotations

from probes.registry import CaseSpec

KiB, MiB = 1024, 1024**2
COPY_BYTES = (64 * KiB, 1 * MiB, 16 * MiB, 128 * MiB)
DIRECTIONS = ("h2d", "d2h")
ROUND_TRIP = "round-trip"  # the pipeline: copy in, compute, copy out
PIPELINE_BYTES = 64 * MiB
PIPELINE_CHUNKS = 8
PIPELINE_WIDTH = 1024  # each chunk is (rows, 1024) fp32, multiplied by a 1024 x 1024 weight on the device
_ASSUMED_BYTES_PER_S = 3e9  # pageable copies on a slow PCIe link; low on purpose, so a busy machine still fits
_CALLS_PLANNED = 30  # check + warmup + timed calls a case should afford (the float64 check counts as several)
_PIPELINE_UNITS = 2  # serial and pipelined


def copy_cost_s(size: int) -> float:
    """Assumed seconds for a copy case of `size` bytes, one implementation."""
    return _CALLS_PLANNED * size / _ASSUMED_BYTES_PER_S


def copy_sizes(share_s: float) -> list[int]:
    """The copy sizes whose cases fit the share beside the pipeline's: the largest dropped first, the smallest kept."""
    sizes = list(COPY_BYTES)
    pipeline_s = _PIPELINE_UNITS * copy_cost_s(2 * PIPELINE_BYTES)
    while len(sizes) > 1 and pipeline_s + sum(len(DIRECTIONS) * 2 * copy_cost_s(size) for size in sizes) > share_s:
        sizes.pop()
    return sizes


def transfer_cases(share_s: float) -> list[CaseSpec]:
    """fp32 buffers: each copy size in both directions, then the pipeline (bytes_moved gives GB/s)."""
    cases = [
        CaseSpec(dtype="fp32", shape={"bytes": size}, options={"transfer": direction}, bytes_moved=float(size))
        for direction in DIRECTIONS
        for size in copy_sizes(share_s)
    ]
    cases.append(
        CaseSpec(
            dtype="fp32",
            shape={"bytes": PIPELINE_BYTES, "chunks": PIPELINE_CHUNKS, "width": PIPELINE_WIDTH},
            options={"transfer": ROUND_TRIP},
            flops=2.0 * (PIPELINE_BYTES // 4) * PIPELINE_WIDTH,
            bytes_moved=2.0 * PIPELINE_BYTES,
        )
    )
    return cases


def chunk_rows(case: CaseSpec) -> int:
    """Rows of one pipeline chunk: bytes / chunks / (4 x width); the sizes must divide evenly."""
    total, chunks, width = case.shape["bytes"], case.shape["chunks"], case.shape["width"]
    if total % (chunks * 4 * width):
        raise ValueError(f"{total} bytes do not split into {chunks} chunks of fp32 rows of width {width}")
    return total // (chunks * 4 * width)
