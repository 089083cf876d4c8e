"""What a profile's decision reads from the probes, in order of weight: which probes to run, how to
share the budget among them, and afterwards which inputs stayed unmeasured.

Each `DecisionInput` names a probe, the concern its readings decide and a weight: the budget is
shared in proportion to the weights (a long-context LLM's attention gets more than its fusion
chain), and the probes run heaviest first, so a short or busy run still answers what matters most.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from advisor.profile import Profile
from probes.models import Evidence, ProbeCase
from probes.reporting import report_for


@dataclass(frozen=True)
class DecisionInput:
    """One probe the decision reads: what its readings decide and its weight in the budget."""

    probe: str
    decides: str
    weight: float


def decision_inputs(profile: Profile) -> list[DecisionInput]:
    """The probes this profile's recommendation reads, heaviest first (ties keep this order)."""
    fp8 = profile.needs.quantization == "fp8"  # read from the gemm probe's fp8 cases against bf16, not from int8
    inputs = [
        DecisionInput("hotops", "how much each concern weighs (Amdahl shares)", 1.0),
        DecisionInput(
            "gemm",
            "GEMM library and precision" + (", fp8 against bf16" if fp8 else ""),
            2.0 if profile.workload != "inference" or fp8 else 1.5,
        ),
    ]
    if profile.convolutional:
        inputs.append(DecisionInput("layout", "convolution layout (channels-last or NCHW)", 1.5))
    if profile.model_type != "cnn":
        long_context = profile.needs.long_context
        inputs.append(
            DecisionInput(
                "attention",
                "attention kernel" + (" at long context" if long_context else ""),
                2.5 if long_context else 1.5,
            )
        )
    if profile.needs.dynamic_shapes or profile.serves:
        inputs.append(
            DecisionInput(
                "dynamic",
                "dynamic-shape strategy (bucketing, recompilation)",
                1.5 if profile.needs.dynamic_shapes else 1.0,
            )
        )
    if profile.serves:
        inputs.append(DecisionInput("fusion", "fusion and launch overhead when serving", 1.0))
    if profile.needs.quantization == "int8":
        inputs.append(DecisionInput("int8", "INT8 quantization toolkit and its accuracy", 2.0))
    return sorted(inputs, key=lambda item: -item.weight)


def probe_weights(inputs: Sequence[DecisionInput]) -> dict[str, float]:
    """Probe -> weight, for `run_probes(probe_weights=...)`."""
    return {item.probe: item.weight for item in inputs}


@dataclass(frozen=True)
class UnmeasuredInput:
    """A decision input the evidence left without a reading, and why."""

    probe: str
    decides: str
    reason: str

    def line(self) -> str:
        """One line for the CLI: what stayed unmeasured, what it decides, why."""
        return f"{self.probe}: {self.decides}: {self.reason}"


def _why_no_reading(cases: Sequence[ProbeCase], evidence: Sequence[Evidence], probe: str) -> str:
    runs = [run for item in evidence for run in item.probe_runs if run.probe == probe]
    if not cases:
        failed = next((run.reason for run in runs if run.reason), None)
        return f"no case ran ({failed})" if failed else "the probe did not run"
    timed = sum(1 for case in cases if case.status == "ok" and case.timing is not None)
    untimed = [case for case in cases if not (case.status == "ok" and case.timing is not None)]
    kinds = {"not-timed": "not timed", "failed": "failed", "skipped": "skipped", "ok": "without a timing"}
    counts = ", ".join(
        f"{sum(1 for case in untimed if case.status == status)} {word}"
        for status, word in kinds.items()
        if any(case.status == status for case in untimed)
    )
    reasons = sorted({case.reason for case in untimed if case.reason})
    detail = f" ({counts}{f': {reasons[0]}' if reasons else ''})" if untimed else ""
    return f"{timed} of {len(cases)} cases timed{detail}"


def unmeasured_inputs(inputs: Sequence[DecisionInput], evidence: Sequence[Evidence]) -> list[UnmeasuredInput]:
    """The inputs whose probe yielded no reading from this evidence (every case of it, any device)."""
    missing = []
    for item in inputs:
        cases = [case for entry in evidence for case in entry.cases if case.key.probe == item.probe]
        report = report_for(item.probe)
        if report is None or report.readings is None:
            continue
        if not report.readings(cases):
            missing.append(UnmeasuredInput(item.probe, item.decides, _why_no_reading(cases, evidence, item.probe)))
    return missing


TIME_SPENT = "time share was spent"  # what the harness says of a case its probe's share left no time for


def ran_out_of_time(item: UnmeasuredInput, evidence: Sequence[Evidence]) -> bool:
    """The input's probe was planned in this run and ran out of time: never started, used its whole share, or left
    cases because its share was spent. A probe that was not asked for, or found nothing to run here, is not."""
    if not any(item.probe in entry.config.probes for entry in evidence):
        return False
    runs = [run for entry in evidence for run in entry.probe_runs if run.probe == item.probe]
    if not runs:
        return True
    spent = any(
        TIME_SPENT in (case.reason or "") for entry in evidence for case in entry.cases if case.key.probe == item.probe
    )
    return spent or any(run.reason == "not started" or run.wall_s >= 0.9 * run.share_s for run in runs)


@dataclass(frozen=True)
class BudgetAdvice:
    """The decision inputs this run's budget left without evidence, and the budget that gives them more time."""

    probes: tuple[str, ...]
    budget_s: float
    suggested_s: int

    def line(self) -> str:
        """One line for the CLI."""
        return (
            f"no evidence for {', '.join(self.probes)} within {self.budget_s:g} s: a budget of about "
            f"{self.suggested_s} s (--budget {self.suggested_s}) gives each probe at least twice its share; "
            "on a busy host, more"
        )


def budget_advice(
    unmeasured: Sequence[UnmeasuredInput], evidence: Sequence[Evidence], budget_s: float
) -> BudgetAdvice | None:
    """What a bigger budget would buy: the unmeasured inputs whose probes ran out of time, and twice this budget
    (rounded up to 10 s), which at least doubles every probe's share; None when time was not what they lacked."""
    short = tuple(item.probe for item in unmeasured if ran_out_of_time(item, evidence))
    if not short:
        return None
    return BudgetAdvice(probes=short, budget_s=budget_s, suggested_s=int(math.ceil(budget_s * 2 / 10) * 10))
