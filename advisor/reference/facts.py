"""Device facts read from a reference extract: what NVIDIA measured on the target device, in figures a decision cites.

Each fact carries its figure, its label (who measured it, where, with what) and the rows it rests on. A fact is
built only from exact rows present for both sides of a comparison; nothing is interpolated.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from advisor.reference.tables import Reference, ReferenceTable

DECODE_ROWS = (1, 16)  # GEMM m of a decode step
PREFILL_MIN_ROWS = 1024  # GEMM m from which a step is a prefill
MODEL_MIN_WIDTH = 4096  # n and k of the layers of 8B-70B models (the grid's smaller squares are the probe's)
ATTENTION_HEADS = (32, 8)  # a grouped-query model's heads (8B class) for attention growth
ALLREDUCE_GPUS = 8


@dataclass(frozen=True)
class ReferenceFact:
    """One figure from NVIDIA's tables for the target device."""

    name: str  # 'fp8_over_bf16_gemm_prefill', 'attention_growth_16x_context', 'allreduce_busbw_gbps'
    value: float
    figure: str  # the sentence a decision quotes
    label: str  # 'measured by NVIDIA on NVIDIA H200, aiconfigurator-core 0.12.0, TensorRT-LLM 1.3.0rc20'
    points: int  # how many measured points it rests on


def geomean(values: Sequence[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def gemm_speedups(table: ReferenceTable, faster: str, baseline: str) -> dict[str, list[float]]:
    """baseline latency / faster latency at every (m, n, k) measured in both dtypes, split into decode and prefill."""
    latency = {(r["gemm_dtype"], r["m"], r["n"], r["k"]): float(r["latency"]) for r in table.records()}
    split: dict[str, list[float]] = {"decode": [], "prefill": []}
    for (dtype, m, n, k), fast in latency.items():
        slow = latency.get((baseline, m, n, k))
        if dtype != faster or slow is None or fast <= 0 or min(n, k) < MODEL_MIN_WIDTH:
            continue
        if m in DECODE_ROWS:
            split["decode"].append(slow / fast)
        elif m >= PREFILL_MIN_ROWS:
            split["prefill"].append(slow / fast)
    return split


def as_fast(ratio: float, baseline: str) -> str:
    """A speed ratio that says which way it points: '1.29x as fast as bf16', '0.75x as fast as bf16 (slower: 1.33x
    the time)'."""
    text = f"{ratio:.2f}x as fast as {baseline}"
    return text if round(ratio, 2) >= 1.0 else f"{text} (slower: {1 / ratio:.2f}x the time)"


# How a figure names a GEMM format of NVIDIA's tables where its table name is not a word a reader knows.
GEMM_FORMAT_NAMES = {"fp8_block": "block-scaled fp8 (fp8_block)"}


def gemm_facts(reference: Reference, engine: str, faster: str) -> list[ReferenceFact]:
    """`faster` (fp8, fp8_block, nvfp4) over bf16 GEMM on the device: the geometric mean over the measured decode and
    prefill shapes."""
    table = reference.table("gemm", engine)
    if table is None:
        return []
    phases = {phase: speedups for phase, speedups in gemm_speedups(table, faster, "bfloat16").items() if speedups}
    if not phases:
        return []
    parts = [
        f"{as_fast(geomean(speedups), 'bf16')} in {phase}" for phase, speedups in sorted(phases.items(), reverse=True)
    ]
    counts = " and ".join(str(len(speedups)) for _, speedups in sorted(phases.items(), reverse=True))
    said = GEMM_FORMAT_NAMES.get(faster, faster)
    figure = (
        f"{said} GEMM is {' and '.join(parts)} on {table.device} (geometric means over {counts} layer shapes "
        "of 8B-70B models)"
    )
    if "decode" in phases and geomean(phases["decode"]) < 1.0:
        figure += f"; decode GEMMs measured slower in {said} here, so check end-to-end decode throughput before counting on it"
    main = phases.get("prefill") or next(iter(phases.values()))
    points = sum(len(speedups) for speedups in phases.values())
    return [ReferenceFact(f"{faster}_over_bf16_gemm", geomean(main), figure, reference.label(table), points)]


def attention_facts(reference: Reference, engine: str) -> list[ReferenceFact]:
    """How context attention grows with the prompt (the longest measured over the shortest), and what an FP8 KV cache
    saves in a decode step at the longest cached context measured."""
    facts = []
    context = reference.table("context_attention", engine)
    if context is not None:
        heads, kv = ATTENTION_HEADS
        points = sorted(
            (r["isl"], float(r["latency"]))
            for r in context.records()
            if r["batch_size"] == 1
            and r["num_heads"] == heads
            and r["num_key_value_heads"] == kv
            and r["attn_dtype"] == "bfloat16"
            and r["kv_cache_dtype"] == "bfloat16"
        )
        if len(points) >= 2:
            (short, t_short), (long, t_long) = points[0], points[-1]
            growth = t_long / t_short
            figure = (
                f"context attention takes {growth:.0f}x as long at {long} tokens as at {short} "
                f"({long // short}x the prompt; {t_long:.2f} ms, batch 1, {heads} query / {kv} KV heads)"
            )
            facts.append(
                ReferenceFact("context_attention_growth", growth, figure, reference.label(context), len(points))
            )
    generation = reference.table("generation_attention", engine)
    if generation is not None:
        heads, kv = ATTENTION_HEADS
        by_kv = {
            (r["step"], r["kv_cache_dtype"]): float(r["latency"])
            for r in generation.records()
            if r["batch_size"] == 8 and r["num_heads"] == heads and r["num_key_value_heads"] == kv
        }
        steps = sorted(step for step, dtype in by_kv if dtype == "fp8" and (step, "bfloat16") in by_kv)
        if steps:
            step = steps[-1]
            value = by_kv[(step, "bfloat16")] / by_kv[(step, "fp8")]
            figure = (
                f"a decode step with an fp8 KV cache is {as_fast(value, 'with a bf16 one')} at {step + 1} cached "
                "tokens (batch 8)"
            )
            facts.append(ReferenceFact("fp8_kv_decode_speedup", value, figure, reference.label(generation), 2))
    return facts


def allreduce_fact(reference: Reference, gpus: int = ALLREDUCE_GPUS) -> ReferenceFact | None:
    """NCCL all_reduce bus bandwidth at the largest message measured (elements of half, 2 bytes each), on the job's
    GPU count where NVIDIA measured it, else on the nearest count below it (the fewest measured for a smaller job):
    an 8-GPU figure says little about a 2-GPU job, and a PCIe box's 8-GPU ring can run far slower than its pairs."""
    table = reference.table("nccl", "nccl")
    if table is None:
        return None
    rows = [r for r in table.records() if r["op_name"] == "all_reduce" and r["nccl_dtype"] == "half"]
    counts = sorted({int(r["num_gpus"]) for r in rows})
    if not counts:
        return None
    below = [count for count in counts if count <= gpus]
    measured = below[-1] if below else counts[0]
    largest = max((r for r in rows if int(r["num_gpus"]) == measured), key=lambda r: r["message_size"])
    size_bytes = 2 * int(largest["message_size"])
    seconds = float(largest["latency"]) / 1e3
    busbw = 2 * (measured - 1) / measured * size_bytes / seconds / 1e9
    shown = f"{busbw:.0f}" if busbw >= 10 else f"{busbw:.2g}"
    figure = f"all_reduce reaches a bus bandwidth of {shown} GB/s on {measured} GPUs at {size_bytes / 2**20:.0f} MiB"
    return ReferenceFact("allreduce_busbw_gbps", busbw, figure, reference.label(table), 1)


def device_facts(
    reference: Reference, engine: str, quantized: str | None, gpus: int = ALLREDUCE_GPUS
) -> list[ReferenceFact]:
    """The facts a decision for this device cites: the asked format's GEMM over bf16 (fp8 when none is asked),
    attention, and all-reduce; `engine` is an aiconfigurator engine name (trtllm, vllm, sglang)."""
    engines = reference.engines("gemm")
    engine = engine if engine in engines else (engines[0] if engines else engine)
    facts = gemm_facts(reference, engine, quantized if quantized in ("fp8", "fp8_block", "nvfp4") else "fp8")
    facts += attention_facts(reference, engine)
    allreduce = allreduce_fact(reference, gpus)
    return facts + ([allreduce] if allreduce is not None else [])
