"""The child process of one probe: `python -m probes.harness.worker JOB_FILE PIPE_FD`.

Plans the probe's cases, measures them one by one and streams each result on the pipe; the parent
(isolation.py) watches it and kills it when it crashes, hangs or overruns its share.
"""

from __future__ import annotations

import faulthandler
import os
import sys
import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from probes.harness.collector import freeze_heap
from probes.harness.device import Device, open_device
from probes.harness.host_allocator import hold_freed_memory
from probes.harness.measure import describe_exception, measure_case
from probes.harness.protocol import (
    CaseResultMessage,
    CaseStartMessage,
    DoneMessage,
    PlanMessage,
    ProbeFailureMessage,
    WorkerJob,
    encode_message,
)
from probes.harness.reference import reference_seconds
from probes.models import CaseKey, OptionValue, ProbeCase
from probes.registry import CaseSpec, Implementation, LoadedProbe, load_probe

_EXIT_RESERVE_S = 0.02  # sending "done" and exiting; the parent stops waiting as soon as it arrives
# A later visit builds and warms the case again: with less time than half its first visit took, it
# would spend the time on that and time little or nothing.
_REVISIT_MIN_SHARE = 0.5


@dataclass(frozen=True)
class PlannedCase:
    """A case paired with one implementation, and why it will be skipped, if it will."""

    case: CaseSpec
    implementation: Implementation
    skip_reason: str | None  # set when the implementation is not enabled on this device


class Channel:
    """The write end of the parent's pipe; every message is written whole, at once."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    def send(self, message: BaseModel) -> None:
        """Write one JSON line; blocks while the pipe is full."""
        data = memoryview(encode_message(message))
        while data:
            data = data[os.write(self._fd, data) :]


def plan_cases(
    loaded: LoadedProbe, device: Device, share_s: float, options: Mapping[str, OptionValue] | None = None
) -> list[PlannedCase]:
    """Every (case, implementation) pair the probe asks for, cases first, implementations in order."""
    planned: list[PlannedCase] = []
    for case in loaded.probe.plan(device, share_s, options):
        for implementation in loaded.implementations:
            if not implementation.supports(case):
                continue
            enabled = implementation.enabled(device)
            planned.append(PlannedCase(case, implementation, None if enabled else f"not enabled on {device.kind}"))
    return planned


def run_job(job: WorkerJob, channel: Channel) -> None:
    """Plan, then measure each case not in job.skip_case_ids, splitting the time left evenly; or, for a
    later visit, time job.revisits again and report each joined result."""
    if job.settings.hold_freed_host_memory:
        hold_freed_memory()
    try:
        loaded = load_probe(job.probe)
        device = open_device(job.device)
        share_s = job.share_s if job.share_s is not None else max(0.0, job.deadline - time.monotonic())
        planned = plan_cases(loaded, device, share_s, job.options)
        if loaded.probe.freezes_heap:  # this child process's own state (run_job runs only in the child: main below)
            freeze_heap(collect_first=loaded.probe.collects_before_freezing)
    except Exception as error:  # noqa: BLE001 - reported to the parent as the probe's failure
        traceback.print_exc()
        channel.send(ProbeFailureMessage(reason=f"probe could not start: {describe_exception(error)}"))
        return
    name = loaded.probe.name
    keys = [entry.case.key(name, entry.implementation.name, device.kind) for entry in planned]
    channel.send(PlanMessage(share_s=share_s, cases=keys, reference_s=reference_seconds(device)))
    if job.revisits:
        _revisit(name, planned, keys, device, job, channel)
    else:
        _first_visits(name, planned, keys, device, job, channel)
    channel.send(DoneMessage())


def _first_visits(
    probe: str, planned: list[PlannedCase], keys: list[CaseKey], device: Device, job: WorkerJob, channel: Channel
) -> None:
    skip = set(job.skip_case_ids)
    pending = [(entry, key) for entry, key in zip(planned, keys) if key.case_id not in skip]
    runnable = sum(1 for entry, _ in pending if entry.skip_reason is None)
    for entry, key in pending:
        if entry.skip_reason is not None:
            channel.send(CaseResultMessage(case=ProbeCase(key=key, status="skipped", reason=entry.skip_reason)))
            continue
        share = _share(job, runnable)
        runnable -= 1
        if share <= 0:
            case = ProbeCase(key=key, status="skipped", reason="the probe's time share was spent before this case")
            channel.send(CaseResultMessage(case=case))
            continue
        _visit(probe, entry, key, device, job, share, channel, None)


def _revisit(
    probe: str, planned: list[PlannedCase], keys: list[CaseKey], device: Device, job: WorkerJob, channel: Channel
) -> None:
    """Time each of job.revisits again, the time left split evenly; a case whose share is under half what
    its earlier visits took keeps them as they are (a visit builds and warms up again before it times)."""
    entries = {key.case_id: entry for entry, key in zip(planned, keys)}
    for left, earlier in zip(range(len(job.revisits), 0, -1), job.revisits):
        entry = entries.get(earlier.key.case_id)
        share = _share(job, left)
        if entry is None or share < _REVISIT_MIN_SHARE * earlier.wall_s:
            continue
        _visit(probe, entry, earlier.key, device, job, share, channel, earlier)


def _share(job: WorkerJob, cases_left: int) -> float:
    """The time left to the probe, less the exit's reserve, split evenly over the cases still to measure."""
    return (job.deadline - _EXIT_RESERVE_S - time.monotonic()) / cases_left


def _visit(
    probe: str,
    entry: PlannedCase,
    key: CaseKey,
    device: Device,
    job: WorkerJob,
    share: float,
    channel: Channel,
    first_visit: ProbeCase | None,
) -> None:
    """Announce, measure (a first or a later visit) and report one case; the parent keeps the last report."""
    now = time.monotonic()
    hang_deadline = now + share + job.settings.case_grace_s + 0.25 * share
    channel.send(CaseStartMessage(case_id=key.case_id, hang_deadline=hang_deadline))
    case = measure_case(probe, entry.implementation, entry.case, device, job.settings, now + share, first_visit)
    channel.send(CaseResultMessage(case=case))


PARENT_ENV = "ADVISOR_PROBE_PARENT"  # the parent's pid, so the child can tell it is orphaned
_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Linux: the kernel kills this child when its parent dies (kill -9 included); exit now if it already has."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            import signal

            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    expected = os.environ.get(PARENT_ENV)
    if expected and expected.isdigit() and os.getppid() != int(expected):
        os._exit(1)  # orphaned before the death signal was armed


def main(argv: list[str]) -> None:
    """Entry point; exits with os._exit so torch's slow interpreter teardown is not charged to the budget."""
    die_with_parent()
    faulthandler.enable()  # a segfault leaves a Python traceback in the child's log
    job = WorkerJob.model_validate_json(Path(argv[0]).read_text())
    channel = Channel(int(argv[1]))
    run_job(job, channel)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
