"""One probe from its first child process to its last: its plan, results, crashes and restarts.

A crash or hang fails only the case that was running; the child is restarted for the cases left,
as long as the probe's share has time and restarts remain.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

from probes.harness.events import CaseDone, CasesPlanned, CaseStarted, EventCallback
from probes.harness.isolation import run_worker
from probes.harness.protocol import CaseResultMessage, CaseStartMessage, PlanMessage, WorkerJob, WorkerMessage
from probes.models import CaseKey, CaseStatus, HarnessSettings, OptionValue, ProbeCase, ProbeRun, ProbeStatus

STARVED_REASONS = (
    "its time share was spent before a timed sample fit",  # measure.py: not-timed
    "the probe's time share was spent before this case",  # worker.py: skipped
    "the probe's time share ran out while it ran; killed",  # isolation.py: not-timed
    "not run: its time share ran out",  # outcome(): skipped
)


NEVER_STARTED = "its time share ran out before the probe started"


def starved(case: ProbeCase) -> bool:
    """The case went unmeasured only because its probe's time ran out: more time would measure it."""
    return case.status in ("not-timed", "skipped") and (case.reason or "").startswith(STARVED_REASONS)


def _visits_short(case: ProbeCase, visit: int) -> bool:
    """Timed by the harness's timer (not a scenario's single pass) on fewer than `visit` visits."""
    timing = case.timing
    if case.status != "ok" or timing is None or timing.stop_reason == "single pass":
        return False
    return len(timing.visits or [len(timing.samples)]) < visit


@dataclass(frozen=True)
class ProbeRound:
    """A probe to run again with time left over: its plan (sized for `sized_for_s`, so the same cases come
    back) and the cases to keep as they are; the starved ones are measured again."""

    plan: tuple[CaseKey, ...]
    sized_for_s: float | None
    kept: dict[str, ProbeCase]

    @classmethod
    def after(cls, run: ProbeRun, cases: list[ProbeCase]) -> ProbeRound | None:
        """The next round of a probe whose run left starved cases, or that its share ended before it could
        start (then it plans afresh); None when nothing was starved or it failed for another reason."""
        if run.status == "failed" and (run.reason or "").startswith(NEVER_STARTED):
            return cls((), None, {})
        if run.status != "ok" or run.sized_for_s is None or not any(starved(case) for case in cases):
            return None
        kept = {case.key.case_id: case for case in cases if not starved(case)}
        return cls(tuple(case.key for case in cases), run.sized_for_s, kept)


class ProbeSession:
    """Runs one probe in child processes within `share_s` seconds, then reports it with `outcome()`."""

    def __init__(
        self,
        name: str,
        device: str,
        settings: HarnessSettings,
        share_s: float,
        emit: EventCallback,
        options: Mapping[str, OptionValue] | None = None,
        resume: ProbeRound | None = None,
        plan_share_s: float | None = None,
    ) -> None:
        """`plan_share_s`: the time the probe sizes its cases for (None: the seconds its child finds left)."""
        self.name, self.device, self.settings, self.share_s = name, device, settings, share_s
        self.options = dict(options or {})
        self.resumed = resume
        self._emit = emit
        self._started = time.monotonic()
        self._deadline = self._started + share_s
        self._hard_deadline = self._started + share_s * (1.0 + settings.probe_grace)
        self._plan: list[CaseKey] | None = list(resume.plan) if resume and resume.plan else None
        self._plan_share_s: float | None = resume.sized_for_s if resume else plan_share_s
        self._results: dict[str, ProbeCase] = dict(resume.kept) if resume else {}
        self._in_flight: str | None = None
        self._in_flight_since = 0.0
        self._incidents: list[str] = []
        self._restarts = 0
        self._failure: str | None = None
        self._cut_short: str | None = None  # why the plan stopped early without anything failing
        self._log_tail: str | None = None
        self._announced = False
        self._references: list[float] = []

    def run(self) -> None:
        """Start children until the plan is done or the probe cannot go on; then, while its share lasts, a
        fresh child for each later visit of the timed cases (`settings.visits`)."""
        if self._first_visits():
            for visit in range(2, self.settings.visits + 1):
                if not self._later_visit(visit):
                    break

    def _later_visit(self, visit: int) -> bool:
        """One child times again, in plan order, each case timed on fewer visits than `visit`; False when
        there was nothing to time or no time left. The case running when the child crashes or runs out of
        time keeps its earlier visits (an incident, not a failure); the probe's status does not change."""
        revisits = [
            case for key in self._plan or [] if (case := self._results.get(key.case_id)) and _visits_short(case, visit)
        ]
        if not revisits or time.monotonic() >= self._deadline:
            return False
        ended = run_worker(self._job(revisits=revisits), hard_deadline=self._hard_deadline, on_message=self._receive)
        if not ended.finished and not ended.out_of_time:
            self._incidents.append(
                f"visit {visit} of {self._in_flight or 'the probe'}: {ended.reason or 'ended without a reason'}"
            )
            self._log_tail = ended.log_tail
        self._in_flight = None
        return ended.finished

    def _job(self, *, skip_case_ids: list[str] | None = None, revisits: list[ProbeCase] | None = None) -> WorkerJob:
        """A child's orders: the probe's plan share and deadline, and which cases to skip or to time again."""
        return WorkerJob(
            probe=self.name,
            device=self.device,
            deadline=self._deadline,
            share_s=self._plan_share_s,
            settings=self.settings,
            skip_case_ids=skip_case_ids or [],
            options=self.options,
            revisits=revisits or [],
        )

    def _first_visits(self) -> bool:
        """Start children until every planned case has a result (True) or the probe cannot go on (False)."""
        while True:
            job = self._job(skip_case_ids=list(self._results))
            ended = run_worker(job, hard_deadline=self._hard_deadline, on_message=self._receive)
            if ended.finished:
                return True
            reason = ended.reason or "ended without a reason"
            self._log_tail = ended.log_tail
            if ended.out_of_time and self._plan is None:
                self._failure = f"{NEVER_STARTED} (start-up takes seconds)"
                return False
            if ended.out_of_time:
                # The budget ended, nothing broke: the running case is untimed, the rest unrun.
                self._fail_in_flight(reason, status="not-timed")
                self._cut_short = "its time share ran out"
                return False
            if self._in_flight is not None:
                self._incidents.append(f"{self._in_flight}: {reason}")
                self._fail_in_flight(reason)
            else:
                self._incidents.append(reason)
            if self._plan is None:
                self._failure = reason
                return False
            if all(key.case_id in self._results for key in self._plan):
                return True  # died after its last result: nothing was lost
            if self._restarts >= self.settings.max_restarts:
                self._failure = f"gave up after {self._restarts} restarts; last: {reason}"
                return False
            if time.monotonic() >= self._deadline:
                self._failure = f"{reason}; no time left in its share to restart"
                return False
            self._restarts += 1

    def _receive(self, message: WorkerMessage) -> None:
        if isinstance(message, PlanMessage):
            if message.reference_s is not None:
                self._references.append(message.reference_s)
            if self._plan is None:  # a restart (or a later round) re-plans identically (same share_s); keep the first
                self._plan, self._plan_share_s = message.cases, message.share_s
            if not self._announced:
                self._announced = True
                self._emit(CasesPlanned(self.name, len(self._plan)))
        elif isinstance(message, CaseStartMessage):
            self._in_flight, self._in_flight_since = message.case_id, time.monotonic()
            self._emit(CaseStarted(self.name, message.case_id))
        elif isinstance(message, CaseResultMessage):
            self._in_flight = None
            case_id = message.case.key.case_id
            revisited = case_id in self._results  # a later visit's joined result replaces the earlier one
            self._results[case_id] = message.case
            if not revisited:
                self._emit(CaseDone(self.name, message.case, len(self._results)))

    def _fail_in_flight(self, reason: str, status: CaseStatus = "failed") -> None:
        key = next((key for key in self._plan or [] if key.case_id == self._in_flight), None)
        self._in_flight = None
        if key is not None and key.case_id in self._results:
            return  # a later visit of a case already measured: the earlier visits' result stands
        if key is not None:
            wall_s = time.monotonic() - self._in_flight_since
            case = ProbeCase(key=key, status=status, reason=reason, wall_s=wall_s)
            self._receive(CaseResultMessage(case=case))

    def outcome(self, *, interrupted: bool = False) -> tuple[ProbeRun, list[ProbeCase]]:
        """The probe's summary and its cases in plan order; unmeasured planned cases are skipped."""
        if interrupted and self._in_flight is not None:
            self._fail_in_flight("interrupted while running", status="skipped")
        why_not_run = "the run was interrupted" if interrupted else self._failure or self._cut_short or "unknown"
        cases: list[ProbeCase] = []
        for key in self._plan or []:
            reported = self._results.get(key.case_id)
            cases.append(reported or ProbeCase(key=key, status="skipped", reason=f"not run: {why_not_run}"))
        status: ProbeStatus = "interrupted" if interrupted else "failed" if self._failure else "ok"
        run = ProbeRun(
            probe=self.name,
            status=status,
            reason="interrupted" if interrupted else self._failure or self._cut_short,
            share_s=self.share_s,
            sized_for_s=self._plan_share_s,
            wall_s=time.monotonic() - self._started,
            restarts=self._restarts,
            incidents=self._incidents,
            log_tail=self._log_tail if status != "ok" or self._incidents else None,
            reference_s=list(self._references),
        )
        return run, cases
