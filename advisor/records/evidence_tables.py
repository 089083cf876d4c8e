"""The Evidence section of a record as plain tables (header + rows of strings), read off the probe cases.

The readings reuse the probes' own analysis (`int8_speedups`, `fit_growth` via the findings) so the
record says what `advisor probe` says.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from probes.findings import probe_findings
from probes.hotops.analysis import hotops_profiles, shown_groups
from probes.int8.analysis import int8_speedups, is_model_case, model_results
from probes.models import Evidence, ProbeCase
from probes.units import format_seconds


@dataclass(frozen=True)
class EvidenceTable:
    """One table of the Evidence section, with the findings written under it."""

    title: str
    header: tuple[str, ...]
    rows: Sequence[Sequence[str]]
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
    """Each int8 path's speedup over the fastest float baseline, and its error; whole models in ONNX Runtime
    against their fp32 run (error: the int8 output's against fp32's)."""
    by_id = {case.key.case_id: case for case in cases}
    rows = []
    for case_id, speedup in sorted(int8_speedups(cases).items()):
        case = by_id[case_id]
        if is_model_case(case):
            continue  # a row of its own below
        error = case.metrics.get("max_rel_error")
        rows.append((case.key.implementation, case.key.shape_text, f"{speedup:.2f}x", f"{error.value:.2%}" if error else "-"))
    for result in model_results(cases):
        speed_text = f"{result.speedup:.2f}x" if result.speedup is not None else "-"
        error_text = f"{result.max_rel_error:.2%}" if result.max_rel_error is not None else "-"
        if result.rel_rmse is not None:
            error_text += f" ({result.rel_rmse:.2%} rms)"
        rows.append((result.int8.key.implementation, f"{result.model} model {result.int8.key.shape_text}", speed_text,
                     error_text))  # fmt: skip
    for case in cases:
        if "rel_rmse" in case.metrics and not is_model_case(case):
            rows.append((case.key.implementation, case.key.shape_text, "-", f"{case.metrics['rel_rmse'].value:.2%} rms"))
    header = ("implementation", "shape", "speedup vs float", "error")
    return EvidenceTable("INT8", header, rows, probe_findings("int8", cases))


def _metric(case: ProbeCase, name: str, form: str, scale: float = 1.0) -> str:
    found = case.metrics.get(name)
    return format(found.value * scale, form) if found is not None else "-"


def hotops_table(cases: Sequence[ProbeCase]) -> EvidenceTable:
    """Each profiled model and pass: the share of time in each operator group (groups with any time)."""
    profiles = hotops_profiles(cases)
    groups = shown_groups(profiles)
    rows = [(profile.model, profile.kind, *(f"{profile.shares[group]:.0%}" if group in profile.shares else "-" for group in groups))
            for profile in profiles]  # fmt: skip
    return EvidenceTable("Hot operators: share of time per group", ("model", "pass", *groups), rows, probe_findings("hotops", cases))


def layout_table(cases: Sequence[ProbeCase]) -> EvidenceTable:
    """Median time of each op and dtype in NCHW, channels-last (NHWC) and mismatched layouts."""
    cells: dict[tuple[str, str, str], dict[str, str]] = defaultdict(dict)
    for case in cases:
        if case.status == "ok" and case.timing is not None:
            group = (str(case.key.options.get("op", case.key.implementation)), case.key.dtype, case.key.shape_text)
            cells[group][case.key.layout] = format_seconds(case.timing.stats.median)
    rows = [(*group, by.get("nchw", "-"), by.get("nhwc", "-"), by.get("mismatch", "-")) for group, by in sorted(cells.items())]
    header = ("op", "dtype", "shape", "NCHW", "channels-last", "mismatched")
    return EvidenceTable("Layout: NCHW vs channels-last", header, rows, probe_findings("layout", cases))


def fusion_table(cases: Sequence[ProbeCase]) -> EvidenceTable:
    """The elementwise/normalization chain eager and compiled: time, kernel launches per call, compile time."""
    rows = [(case.key.implementation, case.key.dtype, case.key.shape_text, format_seconds(case.timing.stats.median),
             _metric(case, "launches_per_call", ".0f"), _metric(case, "compile_s", ".2f"))
            for case in cases if case.status == "ok" and case.timing is not None]  # fmt: skip
    header = ("implementation", "dtype", "shape", "median", "launches per call", "compile s")
    return EvidenceTable("Fusion and launch count", header, rows, probe_findings("fusion", cases))


def scaling_table(cases: Sequence[ProbeCase]) -> EvidenceTable:
    """All-reduce bus bandwidth per message size, and the data-parallel step per world size."""
    rows = []
    for case in cases:
        if case.status != "ok" or case.timing is None:
            continue
        world = str(case.key.options.get("world", "-"))
        figure = (f"{_metric(case, 'bus_gbps', '.3g')} GB/s bus" if "bus_gbps" in case.metrics
                  else f"efficiency {_metric(case, 'efficiency', '.2f')}" if "efficiency" in case.metrics
                  else f"overlap gain {_metric(case, 'overlap_gain', '.2f')}x")  # fmt: skip
        rows.append((case.key.implementation, world, case.key.shape_text, format_seconds(case.timing.stats.median), figure))
    header = ("measurement", "processes", "size", "median", "figure")
    return EvidenceTable("Multi-device scaling", header, rows, probe_findings("scaling", cases))


def transfers_table(cases: Sequence[ProbeCase]) -> EvidenceTable:
    """Host-device copies that ran (accelerators only): time and bandwidth."""
    rows = [(case.key.implementation, str(case.key.options.get("transfer", "-")), case.key.shape_text,
             format_seconds(case.timing.stats.median), _metric(case, "gbps", ".3g"))
            for case in cases if case.status == "ok" and case.timing is not None]  # fmt: skip
    header = ("implementation", "transfer", "size", "median", "GB/s")
    return EvidenceTable("Host-device transfers", header, rows, probe_findings("transfers", cases))


_TABLES = {
    "hotops": hotops_table, "gemm": gemm_table, "attention": attention_table, "dynamic": dynamic_table,
    "int8": int8_table, "layout": layout_table, "fusion": fusion_table, "scaling": scaling_table,
    "transfers": transfers_table,
}  # fmt: skip


def evidence_tables(evidence: Evidence) -> list[EvidenceTable]:
    """The tables for the probes this evidence holds cases of, in a fixed order."""
    by_probe: dict[str, list[ProbeCase]] = defaultdict(list)
    for case in evidence.cases:
        by_probe[case.key.probe].append(case)
    tables = [build(by_probe[probe]) for probe, build in _TABLES.items() if by_probe.get(probe)]
    return [table for table in tables if table.rows]
