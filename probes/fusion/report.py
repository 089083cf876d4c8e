"""What the fusion probe's evidence says: kernel launches eager against compiled, and the speedup."""

from __future__ import annotations

from collections.abc import Sequence

from probes.fusion.analysis import fusion_lines
from probes.fusion.readings import fusion_readings
from probes.models import ProbeCase
from probes.reporting import BarGroup, BarPlot, ChartSpec, ProbeReport, Table, metric_text, timed_cases
from probes.units import format_seconds


def fusion_table(cases: Sequence[ProbeCase]) -> Table:
    """The elementwise/normalization chain eager and compiled: time, kernel launches per call, compile time."""
    rows = [(case.key.implementation, case.key.dtype, case.key.shape_text, format_seconds(case.timing.stats.median),  # type: ignore[union-attr]
             metric_text(case, "launches_per_call", ".0f"), metric_text(case, "compile_s", ".2f"))
            for case in timed_cases(cases)]  # fmt: skip
    header = ("implementation", "dtype", "shape", "median", "launches per call", "compile s")
    return Table("Fusion and launch count", header, rows)


def fusion_charts(cases: Sequence[ProbeCase], device: str) -> list[ChartSpec]:
    """The chain's median time eager and compiled, with the kernel launches of each in the label."""
    timed = timed_cases(cases)
    if not timed:
        return []
    bars = tuple(BarGroup(f"{case.key.implementation} ({case.metrics['launches_per_call'].value:.0f} launches)"
                          if "launches_per_call" in case.metrics else case.key.implementation,
                          (case.timing.stats.median * 1e6,)) for case in timed)  # type: ignore[union-attr]  # fmt: skip
    return [ChartSpec("fusion-time", "Fusion: eager against compiled",
                      BarPlot(f"Elementwise chain, eager vs fused ({device})", "median us", ("median",), bars, "implementation"),
                      "Launches per call are in the labels; the method's inference target is a third of eager's launches.")]  # fmt: skip


REPORT = ProbeReport("fusion", order=70, findings=fusion_lines, table=fusion_table, charts=fusion_charts, readings=fusion_readings)
