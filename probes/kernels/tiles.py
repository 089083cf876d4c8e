"""The tile configurations the probes launch the Triton kernels with, and their names.

Kept here, free of torch and triton imports, so that the GEMM probe (which may run where triton is
missing), the ahead-of-time compiler (aot.py) and the fit guard (fit.py) share one list.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = [
    "ATTENTION_TILE",
    "MATMUL_DEFAULT_TILE",
    "MATMUL_LARGE_TILES",
    "MATMUL_SKINNY_TILE",
    "attention_config_name",
    "matmul_config_name",
]

# Keyword arguments of triton_matmul; each is an entry of triton_matmul.MATMUL_CONFIGS.
MATMUL_DEFAULT_TILE: dict[str, int] = {  # triton_matmul's own defaults, used on every device
    "block_m": 64,
    "block_n": 64,
    "block_k": 32,
    "group_m": 8,
    "num_warps": 4,
    "num_stages": 3,
}
MATMUL_LARGE_TILES: tuple[dict[str, int], ...] = (  # square and prefill shapes on GPUs: the largest, a mid-size one
    {"block_m": 128, "block_n": 256, "block_k": 64, "group_m": 8, "num_warps": 8, "num_stages": 3},
    {"block_m": 128, "block_n": 128, "block_k": 32, "group_m": 8, "num_warps": 4, "num_stages": 4},
)
MATMUL_SKINNY_TILE: dict[str, int] = {  # decode shapes (few rows) on GPUs
    "block_m": 32,
    "block_n": 64,
    "block_k": 32,
    "group_m": 8,
    "num_warps": 2,
    "num_stages": 5,
}
# triton_attention's defaults: the one tile the attention probe launches.
ATTENTION_TILE: dict[str, int] = {"block_m": 64, "block_n": 64, "num_warps": 4, "num_stages": 2}


def matmul_config_name(tile: Mapping[str, int]) -> str:
    """e.g. '64x64x32-w4-s3': block m x n x k, warps, pipeline stages (group_m is 8 in every config)."""
    return f"{tile['block_m']}x{tile['block_n']}x{tile['block_k']}-w{tile['num_warps']}-s{tile['num_stages']}"


def attention_config_name(tile: Mapping[str, int], head_dim: int, causal: bool) -> str:
    """e.g. '64x64-d128-w4-s2-causal': block m x n, head dim, warps, stages, and the causal variant."""
    name = f"{tile['block_m']}x{tile['block_n']}-d{head_dim}-w{tile['num_warps']}-s{tile['num_stages']}"
    return f"{name}-causal" if causal else name
