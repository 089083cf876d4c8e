"""`assess`: the main job as a library function. A profile, measured here (or given evidence, or none),
becomes a recommendation and a decision record written (and committed) in the records folder.

The CLI (`advisor assess`) only gathers the profile from flags, prompts or a file, shows progress and
prints what this returns.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from advisor.interrupts import Stopped, stopped
from advisor.profile import Profile
from advisor.recommendation.inputs import BudgetAdvice, UnmeasuredInput
from advisor.recommendation.models import Recommendation
from advisor.records.decision import WrittenDecision
from probes.environment.models import Environment
from probes.errors import AdvisorError
from probes.harness.events import ProbeEvent
from probes.models import Evidence
from probes.terminal_text import one_line


@dataclass(frozen=True)
class Assessment:
    """What `assess` decided and wrote."""

    recommendation: Recommendation
    written: WrittenDecision
    evidence: tuple[Evidence, ...]
    unmeasured: tuple[UnmeasuredInput, ...] = ()  # decision inputs the measured evidence gave no reading for
    budget: BudgetAdvice | None = None  # what a bigger budget would measure, when this run's ran out


def check_sources(evidence_given: bool, probe: bool) -> None:
    """AdvisorError when evidence is given and probing is turned off: the two exclude each other."""
    if evidence_given and not probe:
        raise AdvisorError("--evidence and --no-probes exclude each other: give evidence files, or decide without any")


def proxy_notice(profile: Profile, environment: Environment) -> str | None:
    """What probing this machine can tell about the profile's target, said before the probes start; None when the
    machine is of the target's hardware family."""
    from advisor.knowledge.loader import device_or_default
    from advisor.records.decision import environment_summary
    from advisor.reference.tables import system_for
    from probes.reporting import PORTABLE_MEANING

    summary = environment_summary(environment)
    machine_family, machine = summary.hardware, summary.device or "its CPU"
    if machine_family == profile.hardware:
        return None
    device = device_or_default(profile.hardware, profile.device)
    reference = (
        f" NVIDIA's own measurements for {device} are quoted in the record either way."
        if system_for(device) is not None
        else ""
    )
    return (
        f"this machine ({machine}, {machine_family or 'an unknown family'}) is not {profile.hardware}: "
        f"its timings are proxy evidence and decide nothing for {profile.hardware}. It can still measure "
        f"{PORTABLE_MEANING}, which carry across hardware. Pass --no-probes to decide from the knowledge "
        f"base alone, or run assess on the target.{reference}"
    )


def probes_for_profile(profile: Profile) -> list[str]:
    """The probes whose readings this profile's recommendation uses, the most decisive first
    (`recommendation.inputs.decision_inputs`: hot operators and gemm always, the rest by need)."""
    from advisor.recommendation.inputs import decision_inputs

    return [item.probe for item in decision_inputs(profile)]


def probe_options_for_profile(profile: Profile, names: Sequence[str]) -> dict[str, dict[str, str]]:
    """Options of the chosen probes: those whose options take a model type (hotops profiles, int8 quantizes whole)
    measure the reference model of the profile's."""
    from probes.registry import probe_declarations

    declared = probe_declarations()
    return {
        name: {"model_type": profile.model_type}
        for name, declaration in declared.items()
        if name in names and declaration.takes("model_type")
    }


def measure(
    profile: Profile,
    *,
    names: Sequence[str] | None = None,
    budget_s: float = 60.0,
    device: str = "auto",
    environment: Environment | None = None,
    on_event: Callable[[ProbeEvent], None] | None = None,
    warn: Callable[[str], None] | None = None,
) -> Evidence:
    """Run the probes the profile needs (or `names`) within the budget; the Evidence comes back marked
    `interrupted` on a stop signal (what was measured until then)."""
    from advisor.recommendation.inputs import decision_inputs, probe_weights
    from probes.runner import budget_warning, run_probes

    chosen = list(names) if names else probes_for_profile(profile)
    warning = budget_warning(chosen, budget_s)
    if warning is not None:
        (warn or (lambda text: sys.stderr.write(f"warning: {one_line(text)}\n")))(warning)
    weights = {name: weight for name, weight in probe_weights(decision_inputs(profile)).items() if name in chosen}
    measured = run_probes(
        chosen,
        budget_s=budget_s,
        device=device,
        on_event=on_event,
        environment=environment,
        probe_options=probe_options_for_profile(profile, chosen),
        probe_weights=weights,
    )
    return measured


def assess(
    profile: Profile,
    *,
    evidence: Sequence[Evidence] | None = None,
    probe: bool = True,
    probe_names: Sequence[str] | None = None,
    budget_s: float = 60.0,
    device: str = "auto",
    records_dir: Path = Path("records"),
    title: str | None = None,
    deciders: Sequence[str] = (),
    commit: bool = True,
    init_git: bool = False,
    environment: Environment | None = None,
    on_event: Callable[[ProbeEvent], None] | None = None,
    progress: Callable[[str], None] | None = None,
) -> Assessment:
    """Measure (unless `evidence` is given or `probe` is False), recommend, and write the decision record.

    A stop signal (Ctrl-C, SIGTERM) before the record's commit begins writes no record: what was measured is kept
    beside the records (`keep_interrupted_evidence`) and Stopped says where; one during the commit lets it finish
    (never half a record) and Stopped says so."""
    from advisor.recommendation.engine import recommend
    from advisor.recommendation.inputs import budget_advice, decision_inputs, unmeasured_inputs
    from advisor.records import write_decision
    from advisor.records.store import check_can_record
    from advisor.serving_estimate import with_estimates
    from probes.runner import check_budget

    check_budget(budget_s, "--budget")
    check_sources(bool(evidence), probe)
    measured: Evidence | None = None
    if evidence:
        evidence_list = list(evidence)
    elif not probe:
        evidence_list = []
    else:
        check_can_record(records_dir)  # before the probes' minutes, not after
        measured = measure(
            profile, names=probe_names, budget_s=budget_s, device=device, environment=environment, on_event=on_event
        )
        evidence_list = [measured]
    try:
        if measured is not None and measured.interrupted:
            raise stopped("no record written")
        recommendation, estimates = with_estimates(recommend(profile, evidence_list), progress)
        unmeasured = tuple(unmeasured_inputs(decision_inputs(profile), evidence_list)) if evidence_list else ()
        budget = budget_advice(unmeasured, [measured], budget_s) if measured is not None else None
        heading = title or profile.title or default_title(profile.model_type, profile.workload, profile.hardware)
        configs = [(e.row.config_file, e.config_text) for e in estimates if e.row.config_file]
        written = write_decision(
            recommendation,
            evidence_list,
            records_dir=records_dir,
            title=heading,
            deciders=list(deciders),
            commit=commit,
            init_git=init_git,
            attachments=configs,
        )
    except KeyboardInterrupt as interrupt:
        if isinstance(interrupt, Stopped) and interrupt.completed:
            raise  # the record's commit had begun and finished: the record stands, its evidence with it
        raise _kept(measured, records_dir) from None
    return Assessment(
        recommendation=recommendation,
        written=written,
        evidence=tuple(evidence_list),
        unmeasured=unmeasured,
        budget=budget,
    )


def _kept(measured: Evidence | None, records_dir: Path) -> Stopped:
    """The stop to raise once what was measured is kept (nothing to keep when no probe ran here)."""
    from advisor.records.interrupted import keep_interrupted_evidence, measured_summary

    if measured is None:
        return stopped("no record written")
    try:
        path = keep_interrupted_evidence(measured, records_dir)
    except OSError as error:
        return stopped(f"no record written; the measured evidence could not be kept in {records_dir}: {error.strerror}")
    return stopped(f"no record written; {measured_summary(measured)}: evidence kept in {path}")


def default_title(model_type: str, workload: str, hardware: str) -> str:
    """A record's title when none is given, from the profile's answers (the CLI offers it before the profile exists)."""
    return f"Operator stack for {model_type} {workload} on {hardware}"
