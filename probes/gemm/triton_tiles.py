"""The Triton matmul written here, as benches: one tile config each, JIT-compiled on CUDA, interpreted on CPU.

A GPU sweep of tile configs stands in for @triton.autotune (which needs a driver at import and
hides which tile won): each config is its own implementation, so the evidence shows every tile's
time. Configs are offered only to the shapes they suit (like autotune's prune_configs_by): large
tiles for square and prefill, a skinny-M tile for decode.
"""

from __future__ import annotations

import importlib.util
import os

import torch

from probes.gemm.inputs import dims, float64_product, matmul_inputs
from probes.harness.device import Device
from probes.registry import Bench, CaseSpec, Unsupported

# Entries of probes.kernels.triton_matmul.MATMUL_CONFIGS, copied because importing that module
# imports triton, which an NPU host may not have (the test suite checks they are still entries).
# triton_matmul's own defaults:
DEFAULT_TILE = {"block_m": 64, "block_n": 64, "block_k": 32, "group_m": 8, "num_warps": 4, "num_stages": 3}
LARGE_TILES = (  # the largest (too big for fp32 on an H100) and a mid-size tile
    {"block_m": 128, "block_n": 256, "block_k": 64, "group_m": 8, "num_warps": 8, "num_stages": 3},
    {"block_m": 128, "block_n": 128, "block_k": 32, "group_m": 8, "num_warps": 4, "num_stages": 4},
)
SKINNY_TILE = {"block_m": 32, "block_n": 64, "block_k": 32, "group_m": 8, "num_warps": 2, "num_stages": 5}

# The interpreter runs tile by tile in NumPy (~1 ms per tile step): a 128^3 product takes ~0.05 s.
INTERPRETER_MAX_DIM = 128
INTERPRETER_UNTIMED = "Triton interpreter on CPU: checked for correctness, not timed"


def tile_name(tile: dict[str, int]) -> str:
    """e.g. '64x64x32-w4-s3': block m x n x k, warps, pipeline stages (group_m is 8 in every config)."""
    return f"{tile['block_m']}x{tile['block_n']}x{tile['block_k']}-w{tile['num_warps']}-s{tile['num_stages']}"


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
    # This process is the probe's own child, so the switch touches no other probe; kernels read it at launch.
    os.environ["TRITON_INTERPRET"] = "1"
    from probes.kernels.triton_matmul import triton_matmul

    a, b = matmul_inputs(case, device)
    reference = float64_product(a, b, device)
    return Bench(run=lambda: triton_matmul(a, b, **tile), reference=reference, untimed=INTERPRETER_UNTIMED)


def _compiled(case: CaseSpec, device: Device, tile: dict[str, int]) -> Bench:
    if case.dtype == "bf16" and torch.cuda.get_device_capability(device.torch_device) < (8, 0):
        raise Unsupported("Triton's bf16 dot needs compute capability >= 8.0")
    from triton.runtime.errors import OutOfResources

    from probes.kernels.triton_matmul import triton_matmul

    a, b = matmul_inputs(case, device)
    try:
        triton_matmul(a, b, **tile)  # the JIT compile, outside the timing; a tile too big fails here
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
