"""How the probes launch the Triton kernels, as plain data: tile, dtype, constants and arguments.

aot.py compiles these configurations for each GPU target. Importing this module imports neither
torch nor triton.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from probes.kernels.tiles import (
    ATTENTION_TILE,
    MATMUL_DEFAULT_TILE,
    MATMUL_LARGE_TILES,
    MATMUL_SKINNY_TILE,
    attention_config_name,
    matmul_config_name,
)

__all__ = [
    "ATTENTION_DTYPES",
    "ATTENTION_GEOMETRY",
    "MATMUL_DTYPES",
    "KernelConfig",
    "KernelName",
    "Pointer",
    "attention_config",
    "matmul_config",
    "probe_configs",
    "work_hint",
]

KernelName = Literal["matmul", "attention"]

# The arguments the probes launch with, as the JIT would see them for a typical case: a 4096^3
# row-major GEMM (16 x 4096 x 4096 for the decode tile) and a (1, 16, 4096, 128) attention call
# (probes/attention/sizing.py's GPU geometry). The JIT specialises on them (aot._specialise), so
# they pick which variant of each kernel is built.
_SQUARE = 4096
_DECODE_ROWS = 16
ATTENTION_GEOMETRY = {"batch": 1, "heads": 16, "seq": 4096, "head_dim": 128}
# fp32 dots follow torch's fp32 matmul setting (probes.kernels.fp32_dot_precision); torch's default,
# allow_tf32=False, gives "ieee", which is what the probes run unless the user changes it.
_FP32_PRECISION = "ieee"
MATMUL_DTYPES = ("fp32", "fp16", "bf16")  # probes/gemm/probe.py DTYPES (tests/kernels checks)
ATTENTION_DTYPES = ("fp16", "bf16")  # probes/attention/sizing.py GEOMETRIES["cuda"].dtypes (likewise)


@dataclass(frozen=True)
class KernelConfig:
    """One kernel as the probes launch it: tile, dtype, launch options, constants and arguments (plain data)."""

    kernel: KernelName
    name: str  # the tile's name (probes.kernels.tiles), e.g. '64x64x32-w4-s3'
    dtype: str  # fp32, fp16, bf16
    num_warps: int
    num_stages: int
    constants: tuple[tuple[str, object], ...]  # tl.constexpr arguments
    arguments: tuple[tuple[str, object], ...]  # the other arguments, as _specialise reads them

    @property
    def label(self) -> str:
        return f"{self.kernel} {self.name} {self.dtype}"


@dataclass(frozen=True)
class Pointer:
    """A tensor argument: its element type (16-byte aligned, as torch allocates)."""

    dtype: str


def matmul_config(tile: Mapping[str, int], dtype: str, *, decode: bool = False) -> KernelConfig:
    """The matmul kernel with `tile` on a 4096^3 row-major GEMM (16 rows for a decode tile)."""
    arguments: dict[str, object] = {name: Pointer(dtype) for name in ("a_ptr", "b_ptr", "c_ptr")}
    arguments.update({"M": _DECODE_ROWS if decode else _SQUARE, "N": _SQUARE, "K": _SQUARE})
    for name in ("stride_am", "stride_bk", "stride_cm"):
        arguments[name] = _SQUARE
    for name in ("stride_ak", "stride_bn", "stride_cn"):
        arguments[name] = 1
    constants = {
        "BLOCK_M": tile["block_m"],
        "BLOCK_N": tile["block_n"],
        "BLOCK_K": tile["block_k"],
        "GROUP_M": tile["group_m"],
        "INPUT_PRECISION": _FP32_PRECISION if dtype == "fp32" else None,
    }
    return KernelConfig(
        kernel="matmul",
        name=matmul_config_name(tile),
        dtype=dtype,
        num_warps=tile["num_warps"],
        num_stages=tile["num_stages"],
        constants=tuple(constants.items()),
        arguments=tuple(arguments.items()),
    )


def attention_config(tile: Mapping[str, int], dtype: str, *, causal: bool) -> KernelConfig:
    """The attention kernel with `tile` on contiguous (1, 16, 4096, 128) q, k, v."""
    heads, seq, head_dim = (ATTENTION_GEOMETRY[key] for key in ("heads", "seq", "head_dim"))
    strides = (heads * seq * head_dim, seq * head_dim, head_dim, 1)  # contiguous (batch, heads, seq, head_dim)
    arguments: dict[str, object] = {f"{name}_ptr": Pointer(dtype) for name in ("q", "k", "v", "o")}
    for name, row in (("q", "m"), ("k", "n"), ("v", "n"), ("o", "m")):
        arguments.update({f"stride_{name}{axis}": stride for axis, stride in zip(("z", "h", row, "d"), strides)})
    arguments.update({"H": heads, "N_CTX": seq, "qk_scale": 0.5})
    constants = {
        "HEAD_DIM": head_dim,
        "BLOCK_M": tile["block_m"],
        "BLOCK_N": tile["block_n"],
        "CAUSAL": causal,
        "INPUT_PRECISION": _FP32_PRECISION if dtype == "fp32" else None,
    }
    return KernelConfig(
        kernel="attention",
        name=attention_config_name(tile, head_dim, causal),
        dtype=dtype,
        num_warps=tile["num_warps"],
        num_stages=tile["num_stages"],
        constants=tuple(constants.items()),
        arguments=tuple(arguments.items()),
    )


def probe_configs() -> list[KernelConfig]:
    """Every (kernel, tile, dtype) the gemm and attention probes launch on a GPU."""
    tiles = [MATMUL_DEFAULT_TILE, *MATMUL_LARGE_TILES, MATMUL_SKINNY_TILE]
    configs = [
        matmul_config(tile, dtype, decode=tile is MATMUL_SKINNY_TILE) for tile in tiles for dtype in MATMUL_DTYPES
    ]
    configs += [
        attention_config(ATTENTION_TILE, dtype, causal=causal) for dtype in ATTENTION_DTYPES for causal in (False, True)
    ]
    return configs


def work_hint(config: KernelConfig) -> int:
    """Bytes of one tile's operands: compile time grows with it (ptxas and LLVM unroll the tile)."""
    dims = [value for name, value in config.constants if name in _TILE_DIMENSIONS and isinstance(value, int)]
    return math.prod(dims) * (4 if config.dtype == "fp32" else 2)


_TILE_DIMENSIONS = ("BLOCK_M", "BLOCK_N", "BLOCK_K", "HEAD_DIM")
