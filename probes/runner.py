"""`run_probes`: run a suite of probes within a time budget and return the Evidence.

The budget covers the whole call (environment detection, child start-up, measuring, tear-down).
Probes run one after another, each in its own child process; each gets an equal part of the time
left when it starts, so time a probe does not use passes to the ones after it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from probes.errors import AdvisorError
from probes.harness.contention import ContentionMeter
from probes.harness.device_choice import DeviceUnavailable, resolve_device
from probes.harness.events import EventCallback, ProbeDone, ProbeEvent, ProbeFailed, ProbeStarted
from probes.harness.isolation import prestart_forkserver, stop_forkserver
from probes.harness.peak_share import add_peak_shares
from probes.harness.provenance import advisor_git_commit
from probes.harness.session import ProbeRound, ProbeSession
from probes.models import (
    MAX_SAMPLES_PER_CASE,
    Evidence,
    HarnessSettings,
    OptionValue,
    ProbeCase,
    ProbeConfig,
    ProbeRun,
)
from probes.registry import known_probes, probe_declarations

if TYPE_CHECKING:
    from probes.environment.models import Environment
    from probes.scaling.options import ResolvedLaunch
    from probes.scaling.session import DistributedSession


class ProbeError(AdvisorError):
    """A suite that cannot start: unknown probe, bad budget, missing device. The message is one line."""


def _ignore(_: ProbeEvent) -> None:
    return None


MIN_PROBE_SHARE_S = 2.0  # the fork server starts a probe at once, but its first start waits for torch (~1-2 s)
# A day: probes revisit their cases up to 5 times, so far less already measures everything; more is a typo
# (or 1e308, which would overflow the deadline arithmetic into inf).
MAX_BUDGET_S = 24 * 3600.0


def check_budget(budget_s: object, name: str = "budget_s") -> None:
    """ProbeError naming the budget as the caller does (`--budget`, `budget_s`) unless it is a positive finite
    number of seconds up to MAX_BUDGET_S."""
    if (
        isinstance(budget_s, bool)
        or not isinstance(budget_s, (int, float))
        or not (math.isfinite(budget_s) and budget_s > 0)
    ):
        raise ProbeError(f"{name} must be a positive number of seconds, got {budget_s!r}")
    if budget_s > MAX_BUDGET_S:
        raise ProbeError(f"{name} must be at most {MAX_BUDGET_S:.0f} seconds (a day), got {budget_s:g}")


def budget_warning(names: list[str] | None, budget_s: float) -> str | None:
    """A one-line warning when the budget leaves each probe too little time to time anything; None otherwise."""
    count = len(select_probes(names))
    share = budget_s / max(1, count)
    if share >= MIN_PROBE_SHARE_S:
        return None
    return (
        f"a budget of {budget_s:g} s gives each of {count} probe(s) about {share:.1f} s, and a probe needs about "
        f"{MIN_PROBE_SHARE_S:g} s to start and time a case: expect few or no timed cases "
        f"(give at least {MIN_PROBE_SHARE_S * count:g} s)"
    )


def select_probes(names: list[str] | None) -> list[str]:
    """The probes to run, in the order given (when names is None, those declared to run by default), without repeats."""
    known = known_probes()
    if names is None:
        declared = probe_declarations()
        return [name for name in known if declared[name].runs_by_default]
    selected = list(dict.fromkeys(names))
    if not selected:
        raise ProbeError(f"no probe names given; known probes: {', '.join(known)}")
    unknown = [name for name in selected if name not in known]
    if unknown:
        raise ProbeError(f"unknown probe(s): {', '.join(unknown)}; known probes: {', '.join(known)}")
    return selected


def run_probes(
    names: list[str] | None,
    *,
    budget_s: float,
    device: str = "auto",
    on_event: EventCallback | None = None,
    settings: HarnessSettings | None = None,
    environment: Environment | None = None,
    probe_options: Mapping[str, Mapping[str, OptionValue]] | None = None,
    probe_weights: Mapping[str, float] | None = None,
) -> Evidence:
    """Measure the named probes (all when None) on `device` within `budget_s` seconds of wall time.

    `probe_options` gives probes their options by name (e.g. {"hotops": {"model_type": "moe"}}); each
    probe validates its own in its child process. `probe_weights` shares the budget in proportion (1 for a
    probe not named): each probe gets its weight's part of the time still left. Ctrl-C stops the run: children are killed and the
    Evidence comes back with `interrupted` set.
    """
    began, started_at = time.monotonic(), datetime.now(timezone.utc)
    check_budget(budget_s)
    selected = select_probes(names)
    options = {name: dict(values) for name, values in (probe_options or {}).items()}
    unselected = sorted(set(options) - set(selected))
    if unselected:
        raise ProbeError(f"options given for probe(s) not selected: {', '.join(unselected)}")
    try:
        resolved = resolve_device(device)
    except DeviceUnavailable as unavailable:
        raise ProbeError(str(unavailable)) from None
    settings = settings or HarnessSettings()
    if settings.max_samples * settings.visits > MAX_SAMPLES_PER_CASE:  # what it wrote could not be read back
        raise ProbeError(
            f"max_samples x visits is {settings.max_samples * settings.visits}, more samples than an "
            f"evidence file may hold per case ({MAX_SAMPLES_PER_CASE})"
        )
    launches = _distributed_launches(selected, options, resolved)
    weights = {name: _weight(probe_weights, name) for name in selected}
    emit = on_event or _ignore
    deadline = began + budget_s
    runs: list[ProbeRun] = []
    cases: list[ProbeCase] = []
    session: ProbeSession | DistributedSession | None = None
    contention: ContentionMeter | None = None
    interrupted = False
    try:
        prestart_forkserver()  # its torch import runs while this process detects the machine
        if environment is None:
            from probes.environment.detect import detect_environment  # slow: only when a run really starts

            environment = detect_environment()
        contention = ContentionMeter.start()
        for index, name in enumerate(selected):
            share = _weighted_share(deadline, weights, selected[index:])
            emit(ProbeStarted(name, index, len(selected), share))
            # Cases are sized for the probe's part of the budget as asked, not for the seconds left at its
            # start (which move with start-up and earlier probes): the same budget plans the same cases,
            # so two runs can be compared case by case.
            nominal = budget_s * weights[name] / sum(weights.values())
            session = _open_session(name, resolved, settings, share, emit, options, launches, nominal)
            session.run()
            run, probe_cases = session.outcome()
            runs.append(run)
            cases.extend(probe_cases)
            session = None
            emit(ProbeDone(run) if run.status == "ok" else ProbeFailed(run))
        rounds = {
            run.probe: ProbeRound.after(run, [case for case in cases if case.key.probe == run.probe])
            for run in runs
            if run.probe not in launches
        }
        # The heaviest in the decision first: where the time left is short, it goes to the cases that weigh most.
        waiting = heaviest_first([name for name in selected if rounds.get(name) is not None], weights)
        for index, name in enumerate(waiting):
            # Time other probes left unused goes to the cases their probe's own share could not time.
            share = _weighted_share(deadline, weights, waiting[index:])
            if share < MIN_PROBE_SHARE_S:
                continue
            emit(ProbeStarted(name, selected.index(name), len(selected), share))
            session = ProbeSession(name, resolved, settings, share, emit, options.get(name), resume=rounds[name])
            session.run()
            again, probe_cases = session.outcome()
            session = None
            position = next(i for i, run in enumerate(runs) if run.probe == name)
            runs[position] = merged_run(runs[position], again)
            cases = _with_probe_cases(cases, name, probe_cases)
            emit(ProbeDone(runs[position]) if runs[position].status == "ok" else ProbeFailed(runs[position]))
    except KeyboardInterrupt:
        # The child is already dead (isolation kills it on the way out); keep what was measured. Nothing more
        # will be forked: the fork server and its folder go now, not at exit.
        interrupted = True
        stop_forkserver()
        if session is not None and not (
            runs and runs[-1].probe == session.name and getattr(session, "resumed", None) is None
        ):
            run, probe_cases = session.outcome(interrupted=True)
            first_round = next((i for i, earlier in enumerate(runs) if earlier.probe == session.name), None)
            if first_round is None:
                runs.append(run)
                cases.extend(probe_cases)
            else:  # interrupted in its second round: what the first measured is among probe_cases
                runs[first_round] = merged_run(runs[first_round], run)
                cases = _with_probe_cases(cases, session.name, probe_cases)
        for name in selected[len(runs) :]:
            runs.append(ProbeRun(probe=name, status="interrupted", reason="not started", share_s=0.0, wall_s=0.0))
    if environment is None:  # stopped while detecting the machine
        from probes.environment.detect import undetected_environment

        environment = undetected_environment("the run was interrupted while detecting the machine")
    add_peak_shares(cases, environment)
    return Evidence(
        environment=environment,
        config=ProbeConfig(
            budget_s=budget_s,
            device_requested=device,
            device=resolved,
            probes=selected,
            settings=settings,
            probe_options=options,
            probe_weights=weights,
        ),
        started_at=started_at,
        finished_at=datetime.now(timezone.utc),
        interrupted=interrupted,
        git_commit=advisor_git_commit(),
        host_contention=contention.result() if contention is not None else None,
        probe_runs=runs,
        cases=cases,
    )


def heaviest_first(names: list[str], weights: Mapping[str, float]) -> list[str]:
    """The probes by their weight in the budget, heaviest first; equal weights keep the order given."""
    return sorted(names, key=lambda name: -weights[name])


def _weighted_share(deadline: float, weights: Mapping[str, float], names: list[str]) -> float:
    """The first of `names`' part of the time left: its weight over the weights of all of them."""
    return max(0.0, deadline - time.monotonic()) * weights[names[0]] / sum(weights[name] for name in names)


def _with_probe_cases(cases: list[ProbeCase], probe: str, replacement: list[ProbeCase]) -> list[ProbeCase]:
    """`cases` with one probe's cases replaced by `replacement`, where the probe's cases stood."""
    start = next((i for i, case in enumerate(cases) if case.key.probe == probe), len(cases))
    others = [case for case in cases if case.key.probe != probe]
    return others[:start] + replacement + others[start:]


def merged_run(first: ProbeRun, again: ProbeRun) -> ProbeRun:
    """A probe's run with its second round folded in: time given and spent added, incidents kept."""
    return first.model_copy(
        update={
            "status": again.status,
            "reason": again.reason,
            "share_s": first.share_s + again.share_s,
            "wall_s": first.wall_s + again.wall_s,
            "restarts": first.restarts + again.restarts,
            "sized_for_s": first.sized_for_s if first.sized_for_s is not None else again.sized_for_s,
            "incidents": [*first.incidents, *again.incidents],
            "log_tail": again.log_tail or first.log_tail,
            "reference_s": [*first.reference_s, *again.reference_s],
            "second_round_s": again.share_s,
        }
    )


def _weight(weights: Mapping[str, float] | None, name: str) -> float:
    """A probe's weight in the budget: as given (a positive finite number), else 1."""
    weight = (weights or {}).get(name, 1.0)
    if not (isinstance(weight, (int, float)) and math.isfinite(weight) and weight > 0):
        raise ProbeError(f"probe weight of {name} must be a positive number, got {weight!r}")
    return float(weight)


def _distributed_launches(
    selected: list[str], options: Mapping[str, Mapping[str, OptionValue]], device: str
) -> dict[str, ResolvedLaunch]:
    """Each selected distributed probe's launch, checked before anything runs (one-line errors naming the flag)."""
    declared = probe_declarations()
    distributed = [name for name in selected if declared[name].distributed]
    if not distributed:
        return {}
    from probes.scaling.options import launch_from_options

    return {name: launch_from_options(options.get(name), device) for name in distributed}


def _open_session(
    name: str,
    device: str,
    settings: HarnessSettings,
    share: float,
    emit: EventCallback,
    options: Mapping[str, Mapping[str, OptionValue]],
    launches: Mapping[str, ResolvedLaunch],
    plan_share_s: float,
) -> ProbeSession | DistributedSession:
    """The harness' single-process session, or a torchrun launch for a distributed probe."""
    if name in launches:
        from probes.scaling.session import DistributedSession

        return DistributedSession(name, launches[name], settings, share, emit)
    return ProbeSession(name, device, settings, share, emit, options.get(name), plan_share_s=plan_share_s)
