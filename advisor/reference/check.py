"""The user's own GPU against NVIDIA's reference: measured speed over reference speed for each matching case.

A case matches a reference row when it runs the same operation at exactly the same point: a torch.matmul GEMM in bf16
(m, n, k), causal SDPA attention in bf16 at batch 1 with full heads (sequence length, heads, head dim), or an NCCL
all-reduce of the same bytes on the same number of GPUs (NVIDIA's half elements, 2 bytes each). The ratio is
reference time / measured time: 1.0 runs as fast as NVIDIA's system, below LOW_RATIO the device is slower than its
reference (clocks, a power cap, a MIG slice, PCIe in place of SXM) and the report names the cases.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from advisor.reference.tables import Reference, reference_for
from probes.models import Evidence, ProbeCase

LOW_RATIO = 0.8  # GEMM or all-reduce below this fraction of the reference's speed: the device underperforms
WARNED_OPERATORS = ("gemm", "all_reduce")
GEMM_DTYPES = {"bf16": "bfloat16"}
ATTENTION_DTYPES = {"bf16": "bfloat16"}
TABLE_ENGINE = "trtllm"  # NVIDIA's own engine's tables: the GEMM and attention kernels closest to cuBLAS and cuDNN


@dataclass(frozen=True)
class ReferenceMatch:
    """One measured case beside the reference row at the same point."""

    case_id: str
    operator: str  # gemm, attention, all_reduce
    measured_ms: float
    reference_ms: float
    label: str

    @property
    def ratio(self) -> float:
        """Measured speed over reference speed (reference time / measured time)."""
        return self.reference_ms / self.measured_ms


def gemm_rows(reference: Reference) -> dict[tuple[str, int, int, int], float]:
    table = reference.table("gemm", TABLE_ENGINE)
    return (
        {}
        if table is None
        else {(r["gemm_dtype"], r["m"], r["n"], r["k"]): float(r["latency"]) for r in table.records()}
    )


def attention_rows(reference: Reference) -> dict[tuple[str, int, int, int, int], float]:
    table = reference.table("context_attention", TABLE_ENGINE)
    if table is None:
        return {}
    return {
        (r["attn_dtype"], r["batch_size"], r["isl"], r["num_heads"], r["head_dim"]): float(r["latency"])
        for r in table.records()
        if r["num_heads"] == r["num_key_value_heads"] and r["kv_cache_dtype"] == r["attn_dtype"]
    }


def all_reduce_rows(reference: Reference) -> dict[tuple[int, int], float]:
    """(bytes, GPUs) -> ms, from NVIDIA's half all-reduce rows (message_size counts 2-byte elements)."""
    table = reference.table("nccl", "nccl")
    if table is None:
        return {}
    return {
        (2 * int(r["message_size"]), int(r["num_gpus"])): float(r["latency"])
        for r in table.records()
        if r["op_name"] == "all_reduce" and r["nccl_dtype"] == "half"
    }


def reference_matches(cases: Iterable[ProbeCase], reference: Reference) -> list[ReferenceMatch]:
    """Every timed GPU case with a reference row at the same point."""
    gemm, attention, reduce = gemm_rows(reference), attention_rows(reference), all_reduce_rows(reference)
    labels = {t.operator: reference.label(t) for t in reference.tables if t.framework in (TABLE_ENGINE, "nccl")}
    found = []
    for case in cases:
        key, timing = case.key, case.timing
        if case.status != "ok" or timing is None or key.device != "cuda":
            continue
        measured_ms = timing.stats.median * 1e3
        shape = key.shape
        row: float | None = None
        operator = ""
        if key.probe == "gemm" and key.implementation == "torch.matmul" and key.dtype in GEMM_DTYPES:
            operator, row = (
                "gemm",
                gemm.get((GEMM_DTYPES[key.dtype], shape.get("m", 0), shape.get("n", 0), shape.get("k", 0))),
            )
        elif (
            key.probe == "attention"
            and key.implementation.startswith("sdpa.")
            and key.dtype in ATTENTION_DTYPES
            and key.options.get("causal") is True
        ):
            operator = "attention"
            row = attention.get(
                (
                    ATTENTION_DTYPES[key.dtype],
                    shape.get("batch", 0),
                    shape.get("seq", 0),
                    shape.get("heads", 0),
                    shape.get("head_dim", 0),
                )
            )
        elif key.probe == "scaling" and key.implementation == "all_reduce" and key.options.get("backend") == "nccl":
            operator, row = "all_reduce", reduce.get((shape.get("bytes", 0), int(key.options.get("world", 0) or 0)))
        if row is not None and row > 0:
            label = labels.get(
                "nccl" if operator == "all_reduce" else ("gemm" if operator == "gemm" else "context_attention"), ""
            )
            found.append(ReferenceMatch(key.case_id, operator, measured_ms, row, label))
    return found


def below_reference(matches: Sequence[ReferenceMatch]) -> list[ReferenceMatch]:
    """GEMM and all-reduce cases slower than LOW_RATIO of the reference."""
    return [m for m in matches if m.operator in WARNED_OPERATORS and m.ratio < LOW_RATIO]


def summary_lines(matches: Sequence[ReferenceMatch], device: str) -> list[str]:
    """Per operator: how many cases match and their median measured/reference; then the warning naming slow cases."""
    if not matches:
        return [f"no case matches a point of NVIDIA's reference for {device}"]
    lines = []
    for operator in ("gemm", "attention", "all_reduce"):
        ratios = [m.ratio for m in matches if m.operator == operator]
        if ratios:
            label = next(m.label for m in matches if m.operator == operator)
            lines.append(
                f"{operator}: {len(ratios)} case(s) at reference points, measured/reference median "
                f"{statistics.median(ratios):.2f}x (min {min(ratios):.2f}x; reference {label})"
            )
    slow = below_reference(matches)
    if slow:
        named = ", ".join(f"{m.case_id} ({m.ratio:.2f}x)" for m in slow[:6]) + (
            f" and {len(slow) - 6} more" if len(slow) > 6 else ""
        )
        lines.append(
            f"warning: below {LOW_RATIO}x the reference on {named}: check clocks, the power cap, a MIG slice, "
            "or a PCIe card in place of SXM"
        )
    return lines


def evidence_check_lines(cases: Sequence[ProbeCase], device: str | None) -> list[str]:
    """The check for an evidence file measured on `device` (detected from its environment): a heading line and the
    summary; nothing where the device has no reference or no case ran on a GPU."""
    reference = reference_for(device)
    gpu = [case for case in cases if case.key.device == "cuda"]
    if reference is None or not gpu:
        return []
    return [
        f"against NVIDIA's reference for {reference.device_id}:",
        *summary_lines(reference_matches(gpu, reference), reference.device_id),
    ]


def evidence_reference_check(evidence: Evidence) -> list[str]:
    """Measured over the vendor's reference for the GPU the evidence was measured on (detected from its environment),
    where it has cases at the reference's points."""
    from advisor.knowledge.devices import detect_device
    from advisor.knowledge.loader import load_knowledge_base

    family = evidence.environment.hardware_family
    if family is None:
        return []
    return evidence_check_lines(evidence.cases, detect_device(evidence.environment, load_knowledge_base(), family))
