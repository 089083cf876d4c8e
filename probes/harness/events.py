"""What `run_probes(on_event=...)` reports while it runs, in order: enough to drive a progress bar."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from probes.models import ProbeCase, ProbeRun


@dataclass(frozen=True)
class ProbeStarted:
    """A probe's child is about to start."""

    probe: str
    index: int  # 0-based position in the suite
    total: int  # probes in the suite
    share_s: float  # wall time this probe may use


@dataclass(frozen=True)
class CasesPlanned:
    """The probe's child has listed its cases (once, even across restarts)."""

    probe: str
    total: int  # cases the probe will report, skipped ones included


@dataclass(frozen=True)
class CaseStarted:
    """A case is being built, checked and timed."""

    probe: str
    case_id: str


@dataclass(frozen=True)
class CaseDone:
    """A case has a result, whatever its status: once per case (a later visit's joined result replaces it silently)."""

    probe: str
    case: ProbeCase
    done: int  # cases of this probe reported so far, this one included


@dataclass(frozen=True)
class ProbeDone:
    """The probe finished its plan (some cases may still have failed)."""

    run: ProbeRun


@dataclass(frozen=True)
class ProbeFailed:
    """The probe could not finish: it failed to start, crashed past its restarts, ran out of time, or was interrupted."""

    run: ProbeRun


ProbeEvent = ProbeStarted | CasesPlanned | CaseStarted | CaseDone | ProbeDone | ProbeFailed
EventCallback = Callable[[ProbeEvent], None]
