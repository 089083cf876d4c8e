"""Fusion pairs read off the probe's cases: compiled against eager launches and time, per case group."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from probes.models import ProbeCase

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
            lines.append(f"eager {case.key.dtype} {case.key.shape_text}: {_launches(case.metrics['launches_per_call'].value)}")
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
