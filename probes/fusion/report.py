"""What the fusion probe's evidence says: kernel launches eager against compiled, and the speedup.

Fusion pairs are read off the cases per case group. `fusion_launch_ratio`: compiled launches / eager
launches per call (the method's inference target is 1/3); `fusion_compiled_speedup`: eager median /
compiled median. Geometric means over the chain cases. Hardware-specific (not portable): launch counts
and speed differ between a CPU and a GPU.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from probes.models import ProbeCase
from probes.reporting import (
    BarGroup,
    BarPlot,
    ChartSpec,
    ProbeReport,
    Reading,
    ReadingSpec,
    Table,
    make_reading,
    metric_text,
    timed_cases,
)
from probes.statistics import geometric_mean
from probes.units import format_seconds

FUSION_LAUNCH_RATIO = ReadingSpec("fusion_launch_ratio")
FUSION_COMPILED_SPEEDUP = ReadingSpec("fusion_compiled_speedup")

LAUNCH_TARGET = 1 / 3  # the method's inference target: a third of the launches per generated token


@dataclass(frozen=True)
class FusionPair:
    """Eager and compiled runs of one chain case."""

    eager: ProbeCase
    compiled: ProbeCase

    @property
    def launch_ratio(self) -> float | None:
        """Compiled launches / eager launches."""
        eager, compiled = self.eager.metrics.get("launches_per_call"), self.compiled.metrics.get("launches_per_call")
        return None if eager is None or compiled is None or eager.value <= 0 else compiled.value / eager.value

    @property
    def speedup(self) -> float | None:
        """Eager median / compiled median, when both were timed."""
        if self.eager.timing is None or self.compiled.timing is None or self.compiled.status != "ok":
            return None
        return self.eager.timing.stats.median / self.compiled.timing.stats.median


def fusion_pairs(cases: Sequence[ProbeCase]) -> list[FusionPair]:
    """Each compiled case with the eager case of the same group (dtype, shape, layout, device, options)."""
    eager = {case.key.group_id: case for case in cases if case.key.implementation == "eager"}
    return [
        FusionPair(eager[case.key.group_id], case)
        for case in cases
        if case.key.implementation != "eager" and case.key.group_id in eager
    ]


def _launches(count: float) -> str:
    return f"{count:.3g} launch{'' if count == 1 else 'es'} per call"


def fusion_lines(cases: Sequence[ProbeCase]) -> list[str]:
    """Launches per call (against the one-third target) and speed of each compiled case, and eager's launches."""
    lines = []
    for case in cases:
        if case.key.implementation == "eager" and "launches_per_call" in case.metrics:
            lines.append(
                f"eager {case.key.dtype} {case.key.shape_text}: {_launches(case.metrics['launches_per_call'].value)}"
            )
    for pair in fusion_pairs(cases):
        ratio, speedup = pair.launch_ratio, pair.speedup
        if ratio is None:
            continue
        launches = pair.compiled.metrics["launches_per_call"].value
        verdict = "meets" if ratio <= LAUNCH_TARGET + 1e-9 else "misses"
        text = f"{pair.compiled.key.implementation} {pair.compiled.key.dtype}: {_launches(launches)}, "
        text += f"{ratio:.2f}x eager's ({verdict} the 1/3 target)"
        if speedup is not None:
            text += f", {speedup:.2f}x eager's speed"
        if "compile_s" in pair.compiled.metrics:
            text += f", compile {pair.compiled.metrics['compile_s'].value:.2f} s"
        lines.append(text)
    return lines


def _pairs_reading(
    spec: ReadingSpec, measured: Sequence[tuple[FusionPair, float]], describe: Callable[[float, int], str]
) -> Reading:
    """One reading: the geometric mean over the pairs, citing both cases of each pair."""
    value = geometric_mean([ratio for _, ratio in measured])
    cases = [case for pair, _ in measured for case in (pair.eager, pair.compiled)]
    return make_reading(spec, value, describe(value, len(measured)), cases)


def fusion_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """The launch ratio and the speedup of the compiled chain, each over the pairs that measured it."""
    pairs = fusion_pairs(cases)
    launched = [(pair, ratio) for pair in pairs if (ratio := pair.launch_ratio) is not None and ratio > 0]
    timed = [(pair, speedup) for pair in pairs if (speedup := pair.speedup) is not None and speedup > 0]
    readings = []
    if launched:
        readings.append(
            _pairs_reading(
                FUSION_LAUNCH_RATIO,
                launched,
                lambda ratio, count: (
                    f"torch.compile {ratio:.2f}x eager's kernel launches per call over {count} chain case(s)"
                ),
            )
        )
    if timed:
        readings.append(
            _pairs_reading(
                FUSION_COMPILED_SPEEDUP,
                timed,
                lambda speedup, count: (
                    f"the compiled chain runs {speedup:.2f}x eager's speed over {count} chain case(s)"
                ),
            )
        )
    return readings


def fusion_table(cases: Sequence[ProbeCase]) -> Table:
    """The elementwise/normalization chain eager and compiled: time, kernel launches per call, compile time."""
    rows = [
        (
            case.key.implementation,
            case.key.dtype,
            case.key.shape_text,
            format_seconds(case.timing.stats.median),  # type: ignore[union-attr]
            metric_text(case, "launches_per_call", ".0f"),
            metric_text(case, "compile_s", ".2f"),
        )
        for case in timed_cases(cases)
    ]
    header = ("implementation", "dtype", "shape", "median", "launches per call", "compile s")
    return Table("Fusion and launch count", header, rows)


def fusion_charts(cases: Sequence[ProbeCase], device: str) -> list[ChartSpec]:
    """The chain's median time eager and compiled, with the kernel launches of each in the label."""
    timed = timed_cases(cases)
    if not timed:
        return []
    bars = tuple(
        BarGroup(
            f"{case.key.implementation} ({case.metrics['launches_per_call'].value:.0f} launches)"
            if "launches_per_call" in case.metrics
            else case.key.implementation,
            (case.timing.stats.median * 1e6,),  # type: ignore[union-attr]
        )
        for case in timed
    )
    return [
        ChartSpec(
            "fusion-time",
            "Fusion: eager against compiled",
            BarPlot(f"Elementwise chain, eager vs fused ({device})", "median us", ("median",), bars, "implementation"),
            "Launches per call are in the labels; the method's inference target is a third of eager's launches.",
        )
    ]


REPORT = ProbeReport(
    "fusion",
    order=70,
    findings=fusion_lines,
    table=fusion_table,
    charts=fusion_charts,
    readings=fusion_readings,
    declares=(FUSION_LAUNCH_RATIO, FUSION_COMPILED_SPEEDUP),
)
