"""Ctrl-C and SIGTERM to a real `advisor assess` (issue 27, category 5), sent to its process group as a terminal
or a supervisor does, at several moments: while it detects the machine, while a probe child runs, while the
record is written, while git commits it.

Each run asserts the exit code (128 + the signal), a stop well within a hang guard (the latency is printed:
`pytest -s` shows it; the issue asks for 2 s, which a busy host cannot promise a test), the interrupted evidence
kept and its path printed, no record and git's HEAD and index unchanged (or, when git had begun committing,
the record committed whole), no process left (the fork server and probe children included, found before the
signal) and nothing left in the child's private TMPDIR.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest
from harness import Project, child_environment, git_state, make_project

from advisor.interrupts import Stopped, exit_code, stop_deferred, stop_on_signals
from probes.models import Evidence
from probes.selftest.faults import FAULTS_ENV, hang_began

STOP_GUARD_S = 20.0  # a hang guard, not the 2 s the issue asks for: the measured figure is printed
START_GUARD_S = 120.0  # torch's first import on a busy host
KEPT = re.compile(r"evidence kept in (\S+\.evidence\.json)")


@dataclass
class Stop:
    """What one interrupted run did."""

    returncode: int
    latency_s: float
    stderr: str
    seen: list[psutil.Process]  # every descendant of the run just before the signal
    commands: list[str]  # their command lines


def _assess(
    project: Project, tmp: Path, *, budget: str = "20", ignore_sigint: bool = False, **env: str
) -> subprocess.Popen[str]:
    """`advisor assess` of the selftest probe in its own process group (as a shell's job), output to files."""
    environment = child_environment(tmp, **env)
    preexec = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if ignore_sigint else None
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "advisor",
            "assess",
            "--profile",
            "profile.yaml",
            "--yes",
            "--budget",
            budget,
            "--probe",
            "selftest",
        ],
        cwd=project.root,
        env=environment,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=preexec,
    )


def _wait_for(process: subprocess.Popen[str], moment: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + START_GUARD_S
    while not moment():
        assert process.poll() is None, f"assess ended before {what}: {process.communicate()}"
        assert time.monotonic() < deadline, f"no {what} within {START_GUARD_S:.0f} s"
        time.sleep(0.02)


def _descendants(process: subprocess.Popen[str]) -> list[psutil.Process]:
    try:
        return psutil.Process(process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _forkserver_running(process: subprocess.Popen[str]) -> Callable[[], bool]:
    return lambda: any("probes.harness.forkserver" in _command(child) for child in _descendants(process))


def _hanging(tmp: Path) -> Callable[[], bool]:
    return lambda: hang_began(tmp)


def _command(process: psutil.Process) -> str:
    try:
        return " ".join(process.cmdline())
    except psutil.Error:
        return ""


def _stop(process: subprocess.Popen[str], number: signal.Signals) -> Stop:
    seen = _descendants(process)
    commands = [_command(child) for child in seen]
    sent = time.monotonic()
    os.killpg(process.pid, number)
    _, stderr = process.communicate(timeout=STOP_GUARD_S)
    latency = time.monotonic() - sent
    print(f"\n{number.name}: stopped {latency:.2f} s after the signal")
    return Stop(process.returncode, latency, stderr, seen, commands)


def _assert_clean(stop: Stop, tmp: Path) -> None:
    assert "Traceback" not in stop.stderr, stop.stderr[-3000:]
    assert stop.latency_s < STOP_GUARD_S
    _, alive = psutil.wait_procs(stop.seen, timeout=10)
    alive = [process for process in alive if process.status() != psutil.STATUS_ZOMBIE]
    assert alive == [], f"left running: {[process.pid for process in alive]}"
    assert sorted(path.name for path in tmp.iterdir()) == [], "the run's temporary folders must go"


def _kept_evidence(stop: Stop, project: Project) -> Evidence:
    found = KEPT.search(stop.stderr)
    assert found, stop.stderr[-3000:]
    path = Path(found.group(1))
    assert path.parent == project.records and path.name.startswith("interrupted-")
    evidence = Evidence.load(path)
    assert evidence.interrupted
    return evidence


def _records(project: Project) -> list[str]:
    return sorted(path.name for path in project.records.iterdir() if not path.name.startswith("interrupted-"))


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


@pytest.fixture
def tmp(tmp_path: Path) -> Path:
    folder = tmp_path / "tmp"
    folder.mkdir()
    return folder


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_while_the_machine_is_detected_keeps_an_empty_interrupted_evidence(number, project, tmp):
    before, records = git_state(project.root), _records(project)
    process = _assess(project, tmp)
    _wait_for(process, _forkserver_running(process), "fork server")  # run_probes began: detection runs now
    stop = _stop(process, number)
    assert stop.returncode == 128 + number, stop.stderr[-3000:]
    assert f"interrupted ({number.name}): no record written" in stop.stderr
    evidence = _kept_evidence(stop, project)
    assert not any(case.status == "ok" for case in evidence.cases)
    assert git_state(project.root) == before and _records(project) == records
    assert any("probes.harness.forkserver" in command for command in stop.commands)
    _assert_clean(stop, tmp)


@pytest.mark.parametrize(
    ("number", "ignored"), [(signal.SIGINT, True), (signal.SIGTERM, False)], ids=["SIGINT-inherited-ignored", "SIGTERM"]
)
def test_a_signal_while_a_probe_child_runs_keeps_the_cases_measured(number, ignored, project, tmp):
    # A shell without job control starts a background job with SIGINT ignored; the group's Ctrl-C must still stop it.
    before, records = git_state(project.root), _records(project)
    process = _assess(project, tmp, ignore_sigint=ignored, **{FAULTS_ENV: "hang"})
    _wait_for(process, _hanging(tmp), "hanging case")  # the matmul cases are measured; the add case hangs
    stop = _stop(process, number)
    assert stop.returncode == 128 + number, stop.stderr[-3000:]
    evidence = _kept_evidence(stop, project)
    assert any(case.status == "ok" for case in evidence.cases)
    hung = next(case for case in evidence.cases if case.key.implementation == "fault.hang")
    assert (hung.status, hung.reason) == ("skipped", "interrupted while running")
    assert evidence.probe_runs[0].status == "interrupted"
    assert git_state(project.root) == before and _records(project) == records
    assert len(stop.seen) >= 2, "the fork server and the probe child it forked"
    _assert_clean(stop, tmp)


def test_a_signal_while_the_record_is_written_takes_it_back(project, tmp):
    before, records = git_state(project.root), _records(project)
    # The record's files wait as hidden temporaries before their rename: the signal lands then. The default budget, not
    # 4 s: on a busy host the probe's start-up took all 4 s and nothing was measured to keep (the selftest stops once
    # its cases are measured, so this costs seconds only where the host is slow).
    process = _assess(project, tmp, ADVISOR_TEST_PAUSE_BEFORE_RENAME="0.5")
    _wait_for(process, lambda: any(project.records.glob(".*.tmp")), "record temporaries")
    stop = _stop(process, signal.SIGINT)
    assert stop.returncode == 130, stop.stderr[-3000:]
    evidence = _kept_evidence(stop, project)
    assert any(case.status == "ok" for case in evidence.cases)
    assert git_state(project.root) == before and _records(project) == records
    assert not any(project.records.glob(".*.tmp"))
    _assert_clean(stop, tmp)


def test_a_signal_while_git_commits_lets_the_commit_finish_whole(project, tmp):
    # A pre-commit hook that takes its time: the signal lands while git commits. Git runs in its own session, so
    # the group's signal does not kill it half-way; advisor waits for it and says the record is complete.
    started = project.root / "hook-started"
    hook = project.root / ".git" / "hooks" / "pre-commit"
    hook.write_text(f"#!/bin/sh\ntouch '{started}'\nsleep 2\n")
    hook.chmod(0o755)
    head, records = project.repo.head.commit.hexsha, _records(project)
    process = _assess(project, tmp, budget="4")
    _wait_for(process, started.exists, "pre-commit hook")
    stop = _stop(process, signal.SIGTERM)
    assert stop.returncode == 143, stop.stderr[-3000:]
    assert "was being committed when the signal came, and is complete" in stop.stderr
    new = sorted(set(_records(project)) - set(records))
    assert len(new) == 2 and new[0].startswith("0002-"), new  # the record and its evidence
    assert project.repo.head.commit.hexsha != head and project.repo.head.commit.parents[0].hexsha == head
    committed = {Path(item.path).name for item in project.repo.head.commit.tree.traverse()}  # type: ignore[union-attr]
    assert set(new) <= committed
    assert project.repo.git.status("--porcelain", "--untracked-files=no") == ""
    assert not any(project.records.glob("interrupted-*"))  # the record holds the evidence; nothing else kept
    _assert_clean(stop, tmp)


# The scopes themselves, in this process (each restores what it changed).


def test_the_scope_overrides_an_inherited_sigint_ignore_honours_nohup_and_restores_both():
    previous = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as nohup leaves it
        with stop_on_signals():
            assert signal.getsignal(signal.SIGINT) not in (signal.SIG_IGN, signal.SIG_DFL)
            assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
            with pytest.raises(Stopped) as stopped:
                signal.raise_signal(signal.SIGTERM)
                time.sleep(1)  # the handler runs at the next bytecode; never reached
            assert exit_code(stopped.value) == 143
            signal.raise_signal(signal.SIGINT)  # a second signal while stopping: the clean-up is not cut short
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN and signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) == previous[signal.SIGTERM]
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def test_a_deferred_section_finishes_and_then_stops():
    previous = signal.getsignal(signal.SIGTERM)
    finished = []
    with pytest.raises(Stopped) as stopped:
        with stop_deferred() as stop:
            signal.raise_signal(signal.SIGTERM)
            assert stop.requested
            finished.append(True)
    assert finished == [True] and stopped.value.signum == signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) == previous


def test_a_signal_between_two_probes_keeps_the_first_and_commits_nothing(project):
    from advisor.assessment import assess
    from advisor.profile import load_profile
    from probes.harness.events import ProbeDone, ProbeEvent

    def signal_after_the_first_probe(event: ProbeEvent) -> None:
        if isinstance(event, ProbeDone) and event.run.probe == "selftest":
            os.kill(os.getpid(), signal.SIGTERM)  # the next probe has not started: no child runs

    before, records = git_state(project.root), _records(project)
    with stop_on_signals(), pytest.raises(Stopped) as stopped:
        assess(
            load_profile(project.root / "profile.yaml"),
            probe_names=["selftest", "layout"],
            # room for the self-test's child to start and time a case on a busy host (its share, not a wall-clock
            # bound on the test: the signal ends the run after the first probe, so the second never spends its share)
            budget_s=60,
            records_dir=project.records,
            on_event=signal_after_the_first_probe,
        )
    assert exit_code(stopped.value) == 143 and "no record written" in (stopped.value.note or "")
    found = KEPT.search(stopped.value.note or "")
    assert found
    evidence = Evidence.load(found.group(1))
    assert evidence.interrupted and [run.status for run in evidence.probe_runs] == ["ok", "interrupted"]
    assert evidence.probe_runs[1].reason == "not started"
    assert any(case.status == "ok" for case in evidence.cases)
    assert git_state(project.root) == before and _records(project) == records
