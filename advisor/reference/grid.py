"""The grid of the reference extract: the shapes of advisor's probes on a GPU and of common model sizes.

Only rows NVIDIA measured exactly at these points are kept (a shape its tables lack is left out, never interpolated).
Model shapes: hidden sizes 2048-8192 with grouped-query attention (8B: 32 query and 8 KV heads of 128, QKV 6144 wide;
14-32B: 40 and 8, 7168; 70B: 64 and 8, 10240) and MoE experts (a 2048-wide model with 768-wide experts; a 7168-wide
one with 2048-wide experts).
"""

from __future__ import annotations

GEMM_DTYPES = ("bfloat16", "fp8", "fp8_block", "nvfp4")
GEMM_M = (1, 16, 64, 256, 512, 1024, 2048, 4096, 8192)  # decode (1, 16) to prefill tokens; the probe's rows among them
_SQUARES = (512, 1024, 2048, 4096, 5120, 8192)  # the probe's squares and widths (n = k), and o-projections
GEMM_NK: frozenset[tuple[int, int]] = frozenset(
    {(size, size) for size in _SQUARES}
    | {(6144, 4096), (7168, 5120), (10240, 8192)}  # QKV projections (n, k)
    | {(768, 2048), (2048, 768), (2048, 7168), (7168, 2048)}  # MoE expert up and down projections
)

ATTENTION_BATCHES = (1, 8)
CONTEXT_LENGTHS = (512, 1024, 2048, 4096, 8192, 16384)  # the probe's ladder up to NVIDIA's longest context row
ATTENTION_HEAD_DIMS = (128,)
# (query heads, KV heads): the probe's 16 full heads, then grouped-query models of 8B to 70B and a 30B MoE
ATTENTION_HEADS: frozenset[tuple[int, int]] = frozenset({(16, 16), (32, 8), (40, 8), (64, 8), (32, 4)})
GENERATION_BATCHES = (1, 8, 32, 128)
GENERATION_STEPS = (1023, 4095, 16383, 32767, 131071)  # tokens already cached when one more is decoded

NCCL_OPS = ("all_reduce", "all_gather")
