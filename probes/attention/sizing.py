"""Which sequence lengths the attention probe sweeps: a x2 ladder, cut where a pair outgrows its part of the share.

The harness splits a probe's share equally over its (case, implementation) pairs, so the largest
length's slowest pair must fit share_s / pairs. Costs come from a throughput assumed per device
kind, low on purpose, so that a slow or busy machine still fits.
"""

from __future__ import annotations

from dataclasses import dataclass

from probes.environment.models import Dtype

MIN_LENGTHS = 3  # the fewest points from which growth with sequence length can be fitted
CAUSAL_VARIANTS: tuple[bool, ...] = (False, True)

# The Triton interpreter runs one program per (64-row query tile, batch*head) and walks every
# 64-key tile in numpy: ~4 ms per tile pair here, so 32 pairs keep one checked call near 0.15 s.
_INTERPRETER_TILE = 64
_INTERPRETER_MAX_TILE_PAIRS = 32


@dataclass(frozen=True)
class AttentionGeometry:
    """The fixed dimensions of one device kind's sweep and the lengths it may reach."""

    batch: int
    heads: int
    head_dim: int
    lengths: tuple[int, ...]  # ascending, each twice the previous
    dtypes: tuple[Dtype, ...]


GEOMETRIES: dict[str, AttentionGeometry] = {
    # Few heads and short rows: a shared 2-core CPU spends ~15 ms on one fp32 call at 1024.
    "cpu": AttentionGeometry(
        batch=1, heads=2, head_dim=64, lengths=(128, 256, 512, 1024, 2048, 4096), dtypes=("fp32", "bf16")
    ),
    # An LLM-like head (128) and head count; 32768 is where materialized scores outgrow most cards.
    "cuda": AttentionGeometry(
        batch=1, heads=16, head_dim=128, lengths=(512, 1024, 2048, 4096, 8192, 16384, 32768), dtypes=("fp16", "bf16")
    ),
    "npu": AttentionGeometry(
        batch=1, heads=16, head_dim=128, lengths=(512, 1024, 2048, 4096, 8192, 16384, 32768), dtypes=("fp16", "bf16")
    ),
}

# Implementations that spend time on every case (the others are refused at their first call):
# cpu: naive, sdpa.math, sdpa.flash; cuda: those, sdpa.efficient, sdpa.cudnn and triton; npu: naive.
TIMED_IMPLEMENTATIONS: dict[str, int] = {"cpu": 3, "cuda": 6, "npu": 1}

# Low on purpose: fp32 naive/math attention measured ~35 GFLOP/s on 2 idle cores; fp16 naive
# attention on a current GPU is held back by its softmax passes over N x N scores.
_ASSUMED_FLOP_PER_S: dict[str, float] = {"cpu": 1e10, "cuda": 2e13, "npu": 2e13}
_CALL_OVERHEAD_S: dict[str, float] = {"cpu": 3e-4, "cuda": 1.5e-4, "npu": 3e-4}  # dispatch; cache flush on devices
# Building inputs, the float64 reference, the 0.1 s warmup and the harness's bookkeeping per pair;
# on devices also a Triton compile or a first cuDNN plan now and then.
_PAIR_FIXED_S: dict[str, float] = {"cpu": 0.25, "cuda": 0.5, "npu": 0.5}
_CALLS_PER_PAIR = 14  # warm and memory calls in the builder, the checked call, warmup, 10 timed calls
_INTERPRETED_PAIR_S = 0.3  # one interpreted Triton call plus its build and check


def attention_flops(batch: int, heads: int, seq: int, head_dim: int, causal: bool) -> float:
    """Multiply-adds x 2 of QK^T and PV over the (query, key) pairs attended (about half when causal)."""
    pairs = seq * (seq + 1) / 2 if causal else seq * seq
    return 4.0 * batch * heads * head_dim * pairs


def interpreter_affordable(batch: int, heads: int, seq: int) -> bool:
    """Whether one call of the Triton kernel under the CPU interpreter stays well under a second."""
    tiles = -(-seq // _INTERPRETER_TILE)
    return batch * heads * tiles * tiles <= _INTERPRETER_MAX_TILE_PAIRS


def pair_cost_s(device_kind: str, geometry: AttentionGeometry, seq: int) -> float:
    """Least time one timed (case, implementation) pair needs at `seq` (non-causal: the dearer)."""
    flops = attention_flops(geometry.batch, geometry.heads, seq, geometry.head_dim, causal=False)
    call_s = _CALL_OVERHEAD_S[device_kind] + flops / _ASSUMED_FLOP_PER_S[device_kind]
    return _PAIR_FIXED_S[device_kind] + _CALLS_PER_PAIR * call_s


def interpreted_pairs(device_kind: str, geometry: AttentionGeometry, lengths: list[int]) -> int:
    """Triton pairs checked under the CPU interpreter (fp32 only: its bf16 dot is wrong)."""
    if device_kind != "cpu" or "fp32" not in geometry.dtypes:
        return 0
    affordable = sum(interpreter_affordable(geometry.batch, geometry.heads, seq) for seq in lengths)
    return affordable * len(CAUSAL_VARIANTS)


def planned_cost_s(device_kind: str, geometry: AttentionGeometry, lengths: list[int]) -> float:
    """Share needed when every pair gets an equal part: pairs x the dearest pair's cost, plus interpreted ones."""
    timed = len(lengths) * len(geometry.dtypes) * len(CAUSAL_VARIANTS) * TIMED_IMPLEMENTATIONS[device_kind]
    dearest = pair_cost_s(device_kind, geometry, lengths[-1])
    return timed * dearest + interpreted_pairs(device_kind, geometry, lengths) * _INTERPRETED_PAIR_S


def sequence_lengths(device_kind: str, share_s: float) -> list[int]:
    """The longest prefix of the ladder that fits share_s, and never fewer than MIN_LENGTHS lengths."""
    geometry = GEOMETRIES[device_kind]
    chosen = list(geometry.lengths[:MIN_LENGTHS])
    for count in range(MIN_LENGTHS + 1, len(geometry.lengths) + 1):
        candidate = list(geometry.lengths[:count])
        if planned_cost_s(device_kind, geometry, candidate) > share_s:
            break
        chosen = candidate
    return chosen
