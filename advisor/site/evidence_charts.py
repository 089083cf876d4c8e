"""The charts of one Evidence file: GEMM throughput, attention growth, dynamic-shape cost, INT8 trade-off.

Each reader picks the probe's timed cases and returns zero or more `Chart`s (an SVG and its caption);
a probe that is absent or has nothing timed draws nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from advisor.site.svg import BarGroup, LabelledPoint, Series, bar_chart, line_chart, scatter_chart, stacked_bar_chart
from probes.hotops.analysis import hotops_profiles, shown_groups
from probes.int8.analysis import int8_speedups
from probes.models import Evidence, ProbeCase
from probes.units import format_bytes

MIB = 1024.0**2
DTYPE_ORDER = ("fp32", "tf32", "bf16", "fp16", "fp8", "int8")


@dataclass(frozen=True)
class Chart:
    """One SVG chart: a file-name part, its title, the SVG text and a one-line caption."""

    name: str
    title: str
    svg: str
    caption: str


def _timed(cases: Sequence[ProbeCase]) -> list[ProbeCase]:
    return [case for case in cases if case.status == "ok" and case.timing is not None]


def _dtype_rank(dtype: str) -> int:
    return DTYPE_ORDER.index(dtype) if dtype in DTYPE_ORDER else len(DTYPE_ORDER)


def gemm_charts(cases: Sequence[ProbeCase], device: str) -> list[Chart]:
    """Best TFLOP/s and % of peak per shape and dtype (the best implementation of each pair)."""
    best: dict[tuple[str, str], ProbeCase] = {}
    flops_of: dict[str, float] = {}
    for case in _timed(cases):
        if "tflops" not in case.metrics:
            continue
        kind = case.key.options.get("kind")
        shape = f"{case.key.shape_text}" + (f" {kind}" if kind else "")
        flops_of[shape] = case.metrics["tflops"].value * case.timing.stats.median if case.timing else 0.0
        slot = (shape, case.key.dtype)
        if slot not in best or case.metrics["tflops"].value > best[slot].metrics["tflops"].value:
            best[slot] = case
    if not best:
        return []
    shapes = sorted({shape for shape, _ in best}, key=lambda shape: (flops_of[shape], shape))
    dtypes = sorted({dtype for _, dtype in best}, key=_dtype_rank)

    def groups(metric: str) -> list[BarGroup]:
        return [
            BarGroup(shape, tuple(best[(shape, dtype)].metrics[metric].value
                                  if (shape, dtype) in best and metric in best[(shape, dtype)].metrics else None
                                  for dtype in dtypes))  # fmt: skip
            for shape in shapes
        ]

    charts = [Chart("gemm-tflops", "GEMM throughput by shape and dtype",
                    bar_chart(f"GEMM TFLOP/s by shape and dtype ({device})", "TFLOP/s", dtypes, groups("tflops"), "shape (m x n x k)"),
                    "Best implementation of each shape and dtype; higher is better.")]  # fmt: skip
    if any("pct_of_peak" in case.metrics for case in best.values()):
        charts.append(Chart("gemm-peak", "GEMM share of the theoretical peak",
                            bar_chart(f"GEMM % of theoretical peak ({device})", "% of peak", dtypes, groups("pct_of_peak"),
                                      "shape (m x n x k)"),
                            "Measured TFLOP/s over the dtype's theoretical peak for this device (from `advisor env`)."))  # fmt: skip
    return charts


def attention_charts(cases: Sequence[ProbeCase], device: str) -> list[Chart]:
    """Time and scratch memory against sequence length, one line per implementation and dtype (log-log)."""
    timed = [case for case in _timed(cases) if "seq" in case.key.shape]
    unmasked = [case for case in timed if not case.key.options.get("causal")]
    chosen = unmasked or timed
    times: dict[str, list[tuple[float, float]]] = defaultdict(list)
    memory: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for case in chosen:
        name = f"{case.key.implementation} {case.key.dtype}"
        seq = float(case.key.shape["seq"])
        times[name].append((seq, case.timing.stats.median * 1e3))  # type: ignore[union-attr]
        extra = case.metrics.get("attn_extra_bytes")
        if extra is not None and extra.value > 0:
            memory[name].append((seq, extra.value / MIB))
    masking = "no mask" if unmasked else "causal"
    charts = []
    if times:
        series = [Series(name, tuple(points)) for name, points in sorted(times.items())]
        charts.append(Chart("attention-time", "Attention time against sequence length",
                            line_chart(f"Attention time vs sequence length ({device}, {masking})", "sequence length",
                                       "median ms (log)", series),
                            "Log-log: a slope of 2 is quadratic growth."))  # fmt: skip
    if memory:
        series = [Series(name, tuple(points)) for name, points in sorted(memory.items())]
        charts.append(Chart("attention-memory", "Attention scratch memory against sequence length",
                            line_chart(f"Attention scratch memory vs sequence length ({device}, {masking})",
                                       "sequence length", "MiB allocated beyond inputs (log)", series),
                            "Peak memory the call allocates beyond its inputs and output; materialized scores grow as N^2."))  # fmt: skip
    return charts


def dynamic_charts(cases: Sequence[ProbeCase], device: str) -> list[Chart]:
    """Request latency percentiles and compile cost per strategy over the same request stream."""
    timed = [case for case in cases if case.status == "ok" and "latency_p50_s" in case.metrics]
    if not timed:
        return []
    percentiles = ("latency_p50_s", "latency_p90_s", "latency_p99_s")
    latency = [BarGroup(case.key.implementation, tuple(case.metrics[name].value * 1e3 if name in case.metrics else None
                                                       for name in percentiles)) for case in timed]  # fmt: skip
    cost = [BarGroup(case.key.implementation, tuple(case.metrics[name].value if name in case.metrics else None
                                                    for name in ("compile_s", "total_s"))) for case in timed]  # fmt: skip
    return [
        Chart("dynamic-latency", "Dynamic-shape request latency per strategy",
              bar_chart(f"Request latency per strategy ({device})", "ms", ("p50", "p90", "p99"), latency, "strategy"),
              "Every strategy plays the same seeded stream of request shapes; compile stalls show in p99."),
        Chart("dynamic-compile", "Dynamic-shape compile cost per strategy",
              bar_chart(f"Compile time and total time per strategy ({device})", "seconds", ("compile s", "total s"), cost,
                        "strategy"),
              "Compile seconds include every recompilation the stream triggered."),
    ]  # fmt: skip


def int8_charts(cases: Sequence[ProbeCase], device: str) -> list[Chart]:
    """Each timed INT8 path: speedup over the fastest float baseline against its numeric error."""
    by_id = {case.key.case_id: case for case in cases}
    points = []
    for case_id, speedup in sorted(int8_speedups(cases).items()):
        case = by_id[case_id]
        error = case.metrics.get("max_rel_error")
        value = error.value if error is not None else (case.numeric.max_rel if case.numeric else None)
        if value is not None and value > 0:
            points.append(LabelledPoint(f"{case.key.implementation} {case.key.shape_text}", value * 100, speedup))
    if not points:
        return []
    return [Chart("int8-tradeoff", "INT8 speedup against error",
                  scatter_chart(f"INT8 speedup vs error ({device})", "max relative error % (log)", "speedup vs float",
                                points, reference_y=1.0),
                  "Above the dashed line INT8 is faster than the fastest float path; further left is more accurate.")]  # fmt: skip


def hotops_charts(cases: Sequence[ProbeCase], device: str) -> list[Chart]:
    """Each profiled model and pass as one bar of 100%, split into operator groups."""
    profiles = hotops_profiles(cases)
    groups = shown_groups(profiles)
    if not profiles or not groups:
        return []
    bars = [BarGroup(f"{profile.model} {profile.kind}", tuple(profile.shares[group] * 100 if group in profile.shares else None
                                                            for group in groups)) for profile in profiles]  # fmt: skip
    return [Chart("hotops-shares", "Share of time per operator group",
                  stacked_bar_chart(f"Where the time goes, per model and pass ({device})", "% of profiled time", groups, bars,
                                    "reference model and pass"),
                  "Self time of each operator from torch.profiler, grouped by concern; the recommendation weighs evidence by these shares.")]  # fmt: skip


def layout_charts(cases: Sequence[ProbeCase], device: str) -> list[Chart]:
    """NCHW, channels-last and mismatched median time per op and dtype."""
    layouts = ("nchw", "nhwc", "mismatch")
    cells: dict[str, dict[str, float]] = defaultdict(dict)
    for case in _timed(cases):
        cells[f"{case.key.options.get('op', case.key.implementation)} {case.key.dtype}"][case.key.layout] = case.timing.stats.median * 1e6  # type: ignore[union-attr]
    if not cells:
        return []
    bars = [BarGroup(label, tuple(by.get(layout) for layout in layouts)) for label, by in sorted(cells.items())]
    return [Chart("layout-time", "Layout: NCHW against channels-last",
                  bar_chart(f"Convolution time by memory layout ({device})", "median us", ("NCHW", "channels-last", "mismatched"),
                            bars, "op and dtype"),
                  "Mismatched: channels-last weights with NCHW activations, or conversions around the block; lower is better.")]  # fmt: skip


def fusion_charts(cases: Sequence[ProbeCase], device: str) -> list[Chart]:
    """The chain's median time eager and compiled, with the kernel launches of each in the label."""
    timed = _timed(cases)
    if not timed:
        return []
    bars = [BarGroup(f"{case.key.implementation} ({case.metrics['launches_per_call'].value:.0f} launches)"
                     if "launches_per_call" in case.metrics else case.key.implementation,
                     (case.timing.stats.median * 1e6,)) for case in timed]  # type: ignore[union-attr]  # fmt: skip
    return [Chart("fusion-time", "Fusion: eager against compiled",
                  bar_chart(f"Elementwise chain, eager vs fused ({device})", "median us", ("median",), bars, "implementation"),
                  "Launches per call are in the labels; the method's inference target is a third of eager's launches.")]  # fmt: skip


def scaling_charts(cases: Sequence[ProbeCase], device: str) -> list[Chart]:
    """All-reduce bus bandwidth against message size, and strong-scaling efficiency per world size."""
    timed = _timed(cases)
    bandwidth: dict[str, list[tuple[float, float]]] = defaultdict(list)
    efficiency = []
    for case in timed:
        world = case.key.options.get("world", "?")
        if "bus_gbps" in case.metrics and "bytes" in case.key.shape:
            bandwidth[f"{case.key.options.get('backend', '')} {world} procs".strip()].append(
                (float(case.key.shape["bytes"]), case.metrics["bus_gbps"].value))
        elif "efficiency" in case.metrics:
            efficiency.append(BarGroup(f"{world} procs", (case.metrics["efficiency"].value,)))
    charts = []
    if bandwidth:
        series = [Series(name, tuple(points)) for name, points in sorted(bandwidth.items())]
        charts.append(Chart("scaling-bandwidth", "All-reduce bus bandwidth",
                            line_chart(f"All-reduce bus bandwidth vs message size ({device})", "message size", "bus GB/s (log)",
                                       series, x_format=lambda size: format_bytes(int(size))),
                            "Bus bandwidth as nccl-tests defines it: algorithm bandwidth x 2(n-1)/n."))  # fmt: skip
    if efficiency:
        charts.append(Chart("scaling-efficiency", "Strong-scaling efficiency",
                            bar_chart(f"Strong-scaling efficiency T1 / (N x TN) ({device})", "efficiency", ("efficiency",),
                                      efficiency, "processes"),
                            "The global batch stays fixed; 1.0 is perfect scaling."))  # fmt: skip
    return charts


CHART_READERS: dict[str, Callable[[Sequence[ProbeCase], str], list[Chart]]] = {
    "hotops": hotops_charts, "gemm": gemm_charts, "attention": attention_charts, "dynamic": dynamic_charts,
    "int8": int8_charts, "layout": layout_charts, "fusion": fusion_charts, "scaling": scaling_charts,
}  # fmt: skip


def evidence_charts(evidence: Evidence) -> list[Chart]:
    """Every chart this evidence can draw, in a fixed probe order."""
    by_probe: dict[str, list[ProbeCase]] = defaultdict(list)
    for case in evidence.cases:
        by_probe[case.key.probe].append(case)
    device = evidence.device_name()
    charts: list[Chart] = []
    for probe, read in CHART_READERS.items():
        if by_probe.get(probe):
            charts.extend(read(by_probe[probe], device))
    return charts
