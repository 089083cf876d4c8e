"""The scaling probe from the parent's side: plan, launch torchrun, follow rank 0's reports, stop it, report.

It stands in for probes.harness.session.ProbeSession (same `run()` and `outcome()`), because one
launch of N processes measures every case: there is no per-case child to restart. A crash or hang
ends the launch; the parent never waits past the probe's share (plus the harness' grace):

- a crash: the case in flight fails with the first rank's one-line error, the cases after it are
  skipped ("not run: ..."); a crash before any case started fails every case with it;
- a hang: no result from rank 0 well past the case's time (as the harness judges a case hung);
- the share running out: the case in flight is not-timed, the rest skipped, as for any probe.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from probes.harness.events import CaseDone, CasesPlanned, CaseStarted, EventCallback
from probes.harness.isolation import describe_exit_code, log_tail
from probes.harness.protocol import CaseResultMessage, CaseStartMessage, DoneMessage, WorkerMessage
from probes.models import CaseKey, CaseStatus, HarnessSettings, ProbeCase, ProbeRun, ProbeStatus
from probes.scaling.launch import stop_launch, torchrun_command
from probes.scaling.options import ResolvedLaunch
from probes.scaling.plan import TEARDOWN_S, ScalingJob, ScalingPlan, plan_scaling
from probes.scaling.results_file import JOB_FILE, RESULTS_FILE, ResultsReader, failure_reason

_POLL_S = 0.1
_ORPHAN_GUARD_S = 30.0  # a process outliving the parent's hard deadline by this much exits on its own
_REPOSITORY_ROOT = Path(__file__).resolve().parents[2]
NOT_RANK_ZERO = "measured on the node that ran rank 0: its evidence holds the results"
CommandFactory = Callable[[ResolvedLaunch, Path, Path], list[str]]


class DistributedSession:
    """Runs the scaling probe's torchrun launch within `share_s` seconds, then reports it with `outcome()`."""

    def __init__(
        self,
        name: str,
        launch: ResolvedLaunch,
        settings: HarnessSettings,
        share_s: float,
        emit: EventCallback,
        command: CommandFactory = torchrun_command,
    ) -> None:
        self.name, self.launch, self.settings, self.share_s = name, launch, settings, share_s
        self._emit, self._command = emit, command
        self._started = time.monotonic()
        self._hard_deadline = self._started + share_s * (1.0 + settings.probe_grace)
        self._plan: ScalingPlan | None = None
        self._results: dict[str, ProbeCase] = {}
        self._in_flight: str | None = None
        self._in_flight_since = 0.0
        self._hang_deadline: float | None = None
        self._done = False
        self._started_any = False
        self._launch_failed = False  # died before its first case: every case failed with it
        self._failure: str | None = None
        self._cut_short: str | None = None
        self._incidents: list[str] = []
        self._log_tail: str | None = None

    def run(self) -> None:
        """Plan, launch and follow until rank 0 is done, the launch dies or hangs, or the share ends."""
        self._plan = plan_scaling(self.launch, self.share_s, self.settings)
        self._emit(CasesPlanned(self.name, len(self._plan.cases)))
        if self._plan.needed_s > self.share_s:
            self._failure = (
                f"its time share ({self.share_s:.0f} s) is below the {self._plan.needed_s:.0f} s one launch needs"
                f" (about {self._plan.startup_s:.0f} s to start {self.launch.world} processes, then every case); "
                "raise --budget"
            )
            return
        with tempfile.TemporaryDirectory(prefix="advisor-scaling-") as name:
            folder = Path(name)
            self._write_job(folder)
            log_path = folder / "torchrun.log"
            with log_path.open("wb") as log:
                process = subprocess.Popen(
                    self._command(self.launch, folder / JOB_FILE, folder),
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=log,
                    start_new_session=True,
                    env=_child_environment(),
                )
            try:
                ending = self._follow(process, ResultsReader(folder / RESULTS_FILE))
            finally:
                stop_launch(process, folder)
            self._conclude(ending, process.returncode, folder, log_path)

    def _write_job(self, folder: Path) -> None:
        assert self._plan is not None
        now = time.time()
        job = ScalingJob(
            plan=self._plan,
            settings=self.settings,
            deadline_unix=now + self.share_s - (time.monotonic() - self._started) - TEARDOWN_S,
            expires_unix=now + self._hard_deadline - time.monotonic() + _ORPHAN_GUARD_S,
            collective_timeout_s=max(30.0, self.share_s),
        )
        (folder / JOB_FILE).write_text(job.model_dump_json())

    def _follow(self, process: subprocess.Popen[bytes], reader: ResultsReader) -> str:
        """'done', 'exited', 'hung' or 'out-of-time'."""
        while True:
            exited = process.poll() is not None  # read after checking, so nothing sent before exiting is missed
            for message in reader.new_messages():
                self._receive(message)
            if self._done:
                _wait_for_exit(process, max(0.0, self._hard_deadline - time.monotonic()))
                return "done"
            if exited:
                return "exited"
            now = time.monotonic()
            if self._hang_deadline is not None and now >= min(self._hang_deadline, self._hard_deadline):
                return "hung" if self._hang_deadline <= self._hard_deadline else "out-of-time"
            if now >= self._hard_deadline:
                return "out-of-time"
            time.sleep(_POLL_S)

    def _receive(self, message: WorkerMessage) -> None:
        if isinstance(message, CaseStartMessage):
            self._in_flight, self._in_flight_since = message.case_id, time.monotonic()
            self._hang_deadline, self._started_any = message.hang_deadline, True
            self._emit(CaseStarted(self.name, message.case_id))
        elif isinstance(message, CaseResultMessage):
            self._in_flight, self._hang_deadline = None, None
            self._results[message.case.key.case_id] = message.case
            self._emit(CaseDone(self.name, message.case, len(self._results)))
        elif isinstance(message, DoneMessage):
            self._done = True

    def _conclude(self, ending: str, returncode: int | None, folder: Path, log_path: Path) -> None:
        """Turn how the launch ended into the run's failure, cut-short reason or incidents."""
        if ending == "done":
            if returncode:
                self._incidents.append(f"torchrun exited with code {returncode} after every case was reported")
            return
        self._log_tail = log_tail(log_path)
        if ending == "exited" and returncode == 0 and not self._results and self._in_flight is None:
            self._cut_short = NOT_RANK_ZERO  # this node ran no rank 0: nothing to report here
            return
        if ending == "hung":
            reason = "hung: no result from rank 0 well past the case's time share; killed"
        elif ending == "out-of-time" and self._started_any:
            self._cut_short = "its time share ran out"
            self._settle_in_flight("the probe's time share ran out while it ran; killed", "not-timed")
            return
        elif ending == "out-of-time":
            reason = (
                f"no case started within its time share ({self.share_s:.0f} s): start-up or the rendezvous"
                " did not finish (every node must run with the same --nnodes and --rdzv-endpoint)"
            )
        else:
            reason = failure_reason(folder) or f"torchrun {describe_exit_code(returncode or 0)}; see the log tail"
        self._incidents.append(f"{self._in_flight}: {reason}" if self._in_flight else reason)
        self._settle_in_flight(reason, "failed")
        self._failure = reason
        self._launch_failed = not self._started_any

    def _planned_keys(self) -> list[CaseKey]:
        return [case.key for case in self._plan.cases] if self._plan is not None else []

    def _settle_in_flight(self, reason: str, status: CaseStatus) -> None:
        key = next((key for key in self._planned_keys() if key.case_id == self._in_flight), None)
        if key is not None:
            wall_s = time.monotonic() - self._in_flight_since
            self._receive(CaseResultMessage(case=ProbeCase(key=key, status=status, reason=reason, wall_s=wall_s)))

    def outcome(self, *, interrupted: bool = False) -> tuple[ProbeRun, list[ProbeCase]]:
        """The probe's summary and its cases in plan order (see the module docstring for unmeasured cases)."""
        if interrupted and self._in_flight is not None:
            self._settle_in_flight("interrupted while running", "skipped")
        cases = [self._case_or_placeholder(key, interrupted) for key in self._planned_keys()]
        status: ProbeStatus = "interrupted" if interrupted else "failed" if self._failure else "ok"
        run = ProbeRun(
            probe=self.name,
            status=status,
            reason="interrupted" if interrupted else self._failure or self._cut_short,
            share_s=self.share_s,
            sized_for_s=self.share_s,
            wall_s=time.monotonic() - self._started,
            incidents=self._incidents,
            log_tail=self._log_tail if status != "ok" or self._incidents else None,
        )
        return run, cases

    def _case_or_placeholder(self, key: CaseKey, interrupted: bool) -> ProbeCase:
        if key.case_id in self._results:
            return self._results[key.case_id]
        if interrupted:
            return ProbeCase(key=key, status="skipped", reason="not run: the run was interrupted")
        if self._launch_failed and self._failure is not None:
            return ProbeCase(key=key, status="failed", reason=self._failure)
        why = self._failure or self._cut_short or "unknown"
        return ProbeCase(key=key, status="skipped", reason=why if why == NOT_RANK_ZERO else f"not run: {why}")


def _wait_for_exit(process: subprocess.Popen[bytes], limit_s: float) -> None:
    """Let torchrun finish its teardown (processes leaving the group) before anything is killed."""
    try:
        process.wait(timeout=min(limit_s, TEARDOWN_S * 2))
    except subprocess.TimeoutExpired:
        pass


def _child_environment() -> dict[str, str]:
    # torchrun's processes must import this very checkout, wherever the parent found it.
    environment = dict(os.environ)
    existing = environment.get("PYTHONPATH")
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(_REPOSITORY_ROOT), existing]))
    return environment
