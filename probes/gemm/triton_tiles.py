"""The Triton matmul written here, as benches: one tile config each, JIT-compiled on CUDA, interpreted on CPU.

A GPU sweep of tile configs stands in for @triton.autotune (which needs a driver at import and
hides which tile won): each config is its own implementation, so the evidence shows every tile's
time. Configs are offered only to the shapes they suit (like autotune's prune_configs_by): large
tiles for square and prefill, a skinny-M tile for decode. A tile whose compiled kernel is known not
to fit the GPU (probes/kernels/fit.py, from kernels compiled ahead of time for each target) is
skipped with the reason before any input is built.
"""

from __future__ import annotations

import importlib.util

import torch

from probes.gemm.inputs import dims, float64_product, matmul_inputs
from probes.harness.device import Device
from probes.kernels.fit import matmul_tile_unfit_reason
from probes.kernels.targets import target_for_device
from probes.kernels.tiles import MATMUL_DEFAULT_TILE, MATMUL_LARGE_TILES, MATMUL_SKINNY_TILE, matmul_config_name
from probes.registry import Bench, CaseSpec, Unsupported

# Entries of probes.kernels.triton_matmul.MATMUL_CONFIGS, kept in probes/kernels/tiles.py, which
# (unlike triton_matmul) does not import triton, which an NPU host may not have. triton_matmul's own
# defaults; the largest tile (192 KiB of shared memory in fp32: more than an A100 or MI300X block
# may have, see probes/kernels/footprints.py) and a mid-size one; a skinny-M tile for decode.
DEFAULT_TILE = MATMUL_DEFAULT_TILE
LARGE_TILES = MATMUL_LARGE_TILES
SKINNY_TILE = MATMUL_SKINNY_TILE

# The interpreter runs tile by tile in NumPy (~1 ms per tile step): a 128^3 product takes ~0.05 s.
INTERPRETER_MAX_DIM = 128
INTERPRETER_UNTIMED = "Triton interpreter on CPU: checked for correctness, not timed"


def tile_name(tile: dict[str, int]) -> str:
    """e.g. '64x64x32-w4-s3': block m x n x k, warps, pipeline stages (group_m is 8 in every config)."""
    return matmul_config_name(tile)


def fit_refusal(tile: dict[str, int], dtype: str, target: str | None, fp32_precision: str) -> str | None:
    """Why `tile` cannot run on the GPU `target` ('sm_90', 'gfx942'), known from its compiled footprint.

    None when it fits, or when nothing is known: a target or dtype the footprint table lacks (fp32
    dots in tf32 included), where the launch's own OutOfResources decides instead.
    """
    if target is None or (dtype == "fp32" and fp32_precision != "ieee"):
        return None
    return matmul_tile_unfit_reason(tile, dtype, target)


def interpreter_checks(case: CaseSpec) -> bool:
    """The cases the CPU interpreter checks: the small fp32 and fp16 squares."""
    return (
        case.options.get("kind") == "square"
        and max(dims(case)) <= INTERPRETER_MAX_DIM
        and case.dtype in ("fp32", "fp16")
    )


def _interpreted(case: CaseSpec, device: Device, tile: dict[str, int]) -> Bench:
    if case.dtype == "bf16":
        raise Unsupported("the Triton interpreter's bf16 dot gives wrong results (triton 3.9); checked on GPUs only")
    if not interpreter_checks(case):
        raise Unsupported(
            "Triton on CPU runs only in its interpreter, whose speed means nothing: "
            f"it checks the fp32 and fp16 squares of side <= {INTERPRETER_MAX_DIM} only"
        )
    from probes.kernels import interpreted
    from probes.kernels.triton_matmul import triton_matmul

    a, b = matmul_inputs(case, device)
    reference = float64_product(a, b, device)

    def run() -> torch.Tensor:
        with interpreted():  # each call: the switch must not outlive the check (an untimed one)
            return triton_matmul(a, b, **tile)

    return Bench(run=run, reference=reference, untimed=INTERPRETER_UNTIMED)


def _compiled(case: CaseSpec, device: Device, tile: dict[str, int]) -> Bench:
    if case.dtype == "bf16" and torch.cuda.get_device_capability(device.torch_device) < (8, 0):
        raise Unsupported("Triton's bf16 dot needs compute capability >= 8.0")
    from triton.runtime.errors import OutOfResources

    from probes.kernels import fp32_dot_precision
    from probes.kernels.triton_matmul import triton_matmul

    target = target_for_device(device.torch_device)
    refusal = fit_refusal(tile, case.dtype, target.name if target else None, fp32_dot_precision())
    if refusal is not None:
        raise Unsupported(refusal)

    a, b = matmul_inputs(case, device)
    try:
        # The JIT compile, outside the timing; a tile too big for a GPU fit_refusal knows nothing about fails here.
        triton_matmul(a, b, **tile)
        device.synchronize()
    except OutOfResources as error:
        raise Unsupported(f"tile {tile_name(tile)} does not fit this GPU: {error}") from None
    return Bench(run=lambda: triton_matmul(a, b, **tile), reference=float64_product(a, b, device))


def triton_bench(case: CaseSpec, device: Device, tile: dict[str, int]) -> Bench:
    """The kernel with one tile config on this case: timed on CUDA, interpreted and untimed on CPU."""
    if importlib.util.find_spec("triton") is None:
        raise Unsupported("triton is not installed")
    if device.kind == "cpu":
        return _interpreted(case, device, tile)
    return _compiled(case, device, tile)
