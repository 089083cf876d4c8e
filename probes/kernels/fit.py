"""Which tile configurations fit a target, decided from the compiled footprints before anything runs.

A tile whose compiled kernel needs more shared memory, registers or tensor memory than one block
may have on the target is refused with the reason, instead of failing at launch (triton raises
OutOfResources only when the kernel is loaded). Targets the table does not cover get no verdict:
the probe then relies on that launch-time error. Imports neither torch nor triton.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from probes.kernels.footprints import FOOTPRINTS
from probes.kernels.targets import TARGETS
from probes.kernels.tiles import matmul_config_name

__all__ = ["config_unfit_reason", "matmul_tile_unfit_reason", "tiles_that_fit"]


def config_unfit_reason(kernel: str, config_name: str, dtype: str, target: str) -> str | None:
    """Why this compiled config does not fit `target`, or None when it fits or nothing is known about it."""
    footprint = FOOTPRINTS.get((kernel, config_name, dtype, target))
    if footprint is None or target not in TARGETS:
        return None
    breaches = footprint.breaches(TARGETS[target])
    if not breaches:
        return None
    where = f"{target} ({TARGETS[target].devices})"
    return f"{kernel} tile {config_name} in {dtype} does not fit {where}: " + "; ".join(breaches)


def matmul_tile_unfit_reason(tile: Mapping[str, int], dtype: str, target: str) -> str | None:
    """config_unfit_reason for a triton_matmul tile (its keyword arguments)."""
    return config_unfit_reason("matmul", matmul_config_name(tile), dtype, target)


def tiles_that_fit(target: str, dtype: str, tiles: Iterable[Mapping[str, int]]) -> list[Mapping[str, int]]:
    """The matmul tiles, in order, that are not known to exceed `target`'s limits in `dtype`."""
    return [tile for tile in tiles if matmul_tile_unfit_reason(tile, dtype, target) is None]
