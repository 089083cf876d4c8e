"""The Evidence section of a record as plain tables (header + rows of strings), read off the probe cases.

The readings reuse the probes' own analysis (`int8_speedups`, `fit_growth` via the findings) so the
record says what `advisor probe` says.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from probes.findings import probe_findings
from probes.int8.analysis import int8_speedups
from probes.models import Evidence, ProbeCase
from probes.units import format_seconds


@dataclass(frozen=True)
class EvidenceTable:
    """One table of the Evidence section, with the findings written under it."""

    title: str
    header: tuple[str, ...]
    rows: list[tuple[str, ...]]
    findings: list[str] = field(default_factory=list)


def _mib(value: float) -> str:
    return f"{value / 1024**2:.1f} MiB"


def gemm_table(cases: Sequence[ProbeCase]) -> EvidenceTable:
    """Per implementation and dtype, its best case by TFLOP/s and the share of the theoretical peak."""
    best: dict[tuple[str, str], ProbeCase] = {}
    for case in cases:
        if case.status != "ok" or "tflops" not in case.metrics:
            continue
        group = (case.key.implementation, case.key.dtype)
        if group not in best or case.metrics["tflops"].value > best[group].metrics["tflops"].value:
            best[group] = case
    rows = []
    for (implementation, dtype), case in sorted(best.items()):
        peak = case.metrics.get("pct_of_peak")
        rows.append((implementation, dtype, case.key.shape_text, f"{case.metrics['tflops'].value:.3g}",
                     f"{peak.value:.1f}%" if peak else "-"))  # fmt: skip
    header = ("implementation", "dtype", "best shape (m x n x k)", "TFLOP/s", "% of peak")
    return EvidenceTable("GEMM", header, rows, probe_findings("gemm", cases))


def attention_table(cases: Sequence[ProbeCase]) -> EvidenceTable:
    """Median time and scratch memory per sequence length, one row per implementation, dtype and masking."""
    cells: dict[tuple[str, str, str], dict[int, str]] = defaultdict(dict)
    lengths: set[int] = set()
    for case in cases:
        if case.status != "ok" or case.timing is None or "seq" not in case.key.shape:
            continue
        seq = case.key.shape["seq"]
        lengths.add(seq)
        extra = case.metrics.get("attn_extra_bytes")
        memory = f", {_mib(extra.value)}" if extra is not None else ""
        group = (case.key.implementation, case.key.dtype, str(case.key.options.get("causal", "-")).lower())
        cells[group][seq] = format_seconds(case.timing.stats.median) + memory
    ordered = sorted(lengths)
    rows = [(*group, *(by_seq.get(seq, "-") for seq in ordered)) for group, by_seq in sorted(cells.items())]
    header = ("implementation", "dtype", "causal", *(f"seq {seq}" for seq in ordered))
    return EvidenceTable("Attention: time, scratch memory", header, rows, probe_findings("attention", cases))


def dynamic_table(cases: Sequence[ProbeCase]) -> EvidenceTable:
    """The request stream played by each strategy: total time, recompilations, padding."""

    def metric(case: ProbeCase, name: str, form: str) -> str:
        found = case.metrics.get(name)
        return format(found.value, form) if found is not None else "-"

    rows = [
        (case.key.implementation, metric(case, "total_s", ".3g"), metric(case, "compiles", ".0f"),
         metric(case, "recompiles_per_100_requests", ".1f"), metric(case, "padding_waste_pct", ".1f"))
        for case in cases
        if case.status == "ok"
    ]  # fmt: skip
    header = ("strategy", "total s", "compiles", "recompiles / 100 requests", "padding waste %")
    return EvidenceTable("Dynamic shapes", header, rows, probe_findings("dynamic", cases))


def int8_table(cases: Sequence[ProbeCase]) -> EvidenceTable:
    """Each int8 path's speedup over the fastest float baseline, and its error."""
    by_id = {case.key.case_id: case for case in cases}
    rows = []
    for case_id, speedup in sorted(int8_speedups(cases).items()):
        case = by_id[case_id]
        error = case.metrics.get("max_rel_error")
        rows.append((case.key.implementation, case.key.shape_text, f"{speedup:.2f}x", f"{error.value:.2%}" if error else "-"))
    for case in cases:
        if "rel_rmse" in case.metrics:
            rows.append((case.key.implementation, case.key.shape_text, "-", f"{case.metrics['rel_rmse'].value:.2%} rms"))
    header = ("implementation", "shape", "speedup vs float", "error")
    return EvidenceTable("INT8", header, rows, probe_findings("int8", cases))


_TABLES = {"gemm": gemm_table, "attention": attention_table, "dynamic": dynamic_table, "int8": int8_table}


def evidence_tables(evidence: Evidence) -> list[EvidenceTable]:
    """The tables for the probes this evidence holds cases of, in a fixed order."""
    by_probe: dict[str, list[ProbeCase]] = defaultdict(list)
    for case in evidence.cases:
        by_probe[case.key.probe].append(case)
    tables = [build(by_probe[probe]) for probe, build in _TABLES.items() if by_probe.get(probe)]
    return [table for table in tables if table.rows]
