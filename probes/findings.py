"""One-line findings per probe, read off its cases: what a person should take away from the table.

These are the same readings the recommendation rests on (dtype speedups, memory growth with
sequence length, int8 speedup, recompilations), phrased for the `advisor probe` summary.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from probes.attention.growth import fit_growth
from probes.fusion.analysis import fusion_lines
from probes.gemm.analysis import dtype_speedups
from probes.harness.statistics import geometric_mean
from probes.hotops.analysis import hotops_profiles, profile_line
from probes.int8.analysis import int8_speedups, is_model_case, model_line, model_results
from probes.layout.analysis import comparison_line, layout_comparisons
from probes.models import ProbeCase
from probes.scaling.analysis import scaling_lines
from probes.transfers.analysis import transfer_lines


def gemm_findings(cases: Sequence[ProbeCase]) -> list[str]:
    """Each dtype against fp32 for torch.matmul: geometric-mean speedup over the shapes both ran."""
    by_dtype: dict[str, list[float]] = defaultdict(list)
    for speedup in dtype_speedups(case for case in cases if case.key.implementation == "torch.matmul"):
        by_dtype[speedup.dtype].append(speedup.speedup)
    lines = []
    for dtype, speedups in sorted(by_dtype.items()):
        mean = geometric_mean(speedups)
        verdict = "faster" if mean >= 1 else "SLOWER"
        lines.append(f"torch.matmul {dtype} vs fp32: {mean:.2f}x ({verdict}; geometric mean over {len(speedups)} shapes)")
    best = [case for case in cases if "pct_of_peak" in case.metrics]
    if best:
        top = max(best, key=lambda case: case.metrics["pct_of_peak"].value)
        lines.append(
            f"best: {top.key.implementation} {top.key.dtype} {top.key.shape_text}"
            f" at {top.metrics['pct_of_peak'].value:.1f}% of the theoretical peak"
        )
    return lines


def attention_findings(cases: Sequence[ProbeCase]) -> list[str]:
    """Log-log growth of scratch memory and time with sequence length, per implementation and dtype."""
    memory: dict[tuple[str, str, object], list[tuple[int, float]]] = defaultdict(list)
    timing: dict[tuple[str, str, object], list[tuple[int, float]]] = defaultdict(list)
    for case in cases:
        group: tuple[str, str, object] = (case.key.implementation, case.key.dtype, case.key.options.get("causal"))
        extra = case.metrics.get("attn_extra_bytes")
        if extra is not None and extra.value > 0:
            memory[group].append((case.key.shape["seq"], extra.value))
        if case.status == "ok" and case.timing is not None:
            timing[group].append((case.key.shape["seq"], case.timing.stats.median))
    lines = []
    for group in sorted(set(memory) | set(timing), key=str):
        implementation, dtype, causal = group
        parts = []
        for label, points in (("scratch memory", memory.get(group, [])), ("time", timing.get(group, []))):
            if len({length for length, _ in points}) >= 2:
                parts.append(f"{label} ~ N^{fit_growth(points):.2f}")
        if parts:
            lines.append(f"{implementation} {dtype} causal={causal}: {', '.join(parts)}")
    return lines


def int8_findings(cases: Sequence[ProbeCase]) -> list[str]:
    """int8 speedup over the fastest float baseline, with the error metrics of the quantized block;
    whole models in ONNX Runtime: int8 against fp32, and the int8 output's error against fp32's."""
    by_id = {case.key.case_id: case for case in cases}
    lines = []
    for case_id, speedup in int8_speedups(cases).items():
        case = by_id[case_id]
        if is_model_case(case):
            continue  # a line of its own below
        error = case.metrics.get("max_rel_error")
        detail = f", max rel error {error.value:.1%}" if error is not None else ""
        lines.append(f"{case.key.implementation} {case.key.shape_text}: {speedup:.2f}x vs float{detail}")
    lines += [model_line(result) for result in model_results(cases)]
    for case in cases:
        if case.key.implementation.startswith("qdq.") and "rel_rmse" in case.metrics:
            lines.append(f"{case.key.implementation}: relative RMS error {case.metrics['rel_rmse'].value:.2%}")
    return lines


def dynamic_findings(cases: Sequence[ProbeCase]) -> list[str]:
    """Per strategy: total time with compilation, recompilations, compile time and padding waste."""
    lines = []
    for case in cases:
        metrics = case.metrics
        if "total_s" not in metrics:
            continue
        parts = [f"total {metrics['total_s'].value:.2f} s"]
        for name, label, unit in (
            ("recompiles", "recompiles", ""),
            ("compile_s", "compile", " s"),
            ("padding_waste_pct", "padding waste", "%"),
        ):
            if name in metrics and metrics[name].value:
                parts.append(f"{label} {metrics[name].value:.3g}{unit}")
        if metrics.get("recompile_limit_hit") and metrics["recompile_limit_hit"].value:
            parts.append("hit the recompile limit (fell back to eager)")
        lines.append(f"{case.key.implementation}: {', '.join(parts)}")
    return lines


def hotops_findings(cases: Sequence[ProbeCase]) -> list[str]:
    """Per profiled (model, pass): the largest concern groups' shares of self time and the top operator."""
    return [profile_line(profile) for profile in hotops_profiles(cases)]


def layout_findings(cases: Sequence[ProbeCase]) -> list[str]:
    """Per (op, dtype): channels-last against NCHW, and what a layout mismatch costs."""
    return [comparison_line(comparison) for comparison in layout_comparisons(cases)]


def fusion_findings(cases: Sequence[ProbeCase]) -> list[str]:
    """Launches per call eager vs compiled (against the method's one-third target) and the speedup."""
    return fusion_lines(cases)


def scaling_findings(cases: Sequence[ProbeCase]) -> list[str]:
    """All-reduce bus bandwidth, strong-scaling efficiency 1 -> N, DDP's overlap gain."""
    return scaling_lines(cases)


def transfers_findings(cases: Sequence[ProbeCase]) -> list[str]:
    """Pinned vs pageable copy bandwidth, and the overlap a three-stream pipeline gains over serial."""
    return transfer_lines(cases)


FINDINGS: dict[str, Callable[[Sequence[ProbeCase]], list[str]]] = {
    "gemm": gemm_findings,
    "attention": attention_findings,
    "int8": int8_findings,
    "dynamic": dynamic_findings,
    "hotops": hotops_findings,
    "layout": layout_findings,
    "fusion": fusion_findings,
    "scaling": scaling_findings,
    "transfers": transfers_findings,
}


def probe_findings(probe: str, cases: Sequence[ProbeCase]) -> list[str]:
    """The findings for one probe's cases; none for probes without a reader."""
    reader = FINDINGS.get(probe)
    return reader(cases) if reader is not None else []
