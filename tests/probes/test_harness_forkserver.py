"""The warm fork server: children forked from it are real, isolated probe workers; it recovers when it
dies and dies with its parent. (Crash, hang, OOM and wrong answers through it: test_harness_isolation.)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from probes.harness import forkserver
from probes.harness.events import CaseStarted, ProbeEvent
from probes.harness.forkserver import FORKSERVER_ENV, shared_server_pid
from probes.models import HarnessSettings
from probes.runner import run_probes

SETTINGS = HarnessSettings(warmup_s=0.01, max_samples=50)


@pytest.fixture(autouse=True)
def _warm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(FORKSERVER_ENV, "1")


def _parents_of_running_workers() -> list[int]:
    """The parent pid of every probe worker alive now (cold ones by their command line, forked ones by parent)."""
    parents = []
    for process in psutil.Process().children(recursive=True):
        try:
            if "probes.harness.worker" in " ".join(process.cmdline()) or process.ppid() == shared_server_pid():
                parents.append(process.ppid())
        except psutil.NoSuchProcess:
            continue
    return parents


def test_probe_children_are_forked_by_the_warm_server_and_measure():
    seen: list[int] = []

    def on_event(event: ProbeEvent) -> None:
        if isinstance(event, CaseStarted):
            seen.extend(_parents_of_running_workers())

    evidence = run_probes(["selftest"], budget_s=30, device="cpu", on_event=on_event, settings=SETTINGS)
    server = shared_server_pid()
    assert server is not None
    assert seen and set(seen) == {server}  # no cold `python -m probes.harness.worker` child
    assert all(case.status == "ok" for case in evidence.cases)


def test_a_dead_server_is_replaced_and_the_run_goes_on():
    run_probes(["selftest"], budget_s=20, device="cpu", settings=SETTINGS)
    first = shared_server_pid()
    assert first is not None
    os.kill(first, signal.SIGKILL)
    while psutil.pid_exists(first) and psutil.Process(first).status() != psutil.STATUS_ZOMBIE:
        time.sleep(0.05)
    evidence = run_probes(["selftest"], budget_s=20, device="cpu", settings=SETTINGS)
    assert all(case.status == "ok" for case in evidence.cases)
    second = shared_server_pid()
    assert second is not None and second != first


def test_with_the_server_off_children_start_cold(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(FORKSERVER_ENV, "0")
    assert not forkserver.enabled()
    seen: list[str] = []

    def command_line(child: psutil.Process) -> str:
        try:
            return " ".join(child.cmdline())
        except psutil.Error:  # an earlier visit's child exiting (a zombie until reaped) or gone
            return ""

    def on_event(event: ProbeEvent) -> None:
        if isinstance(event, CaseStarted):
            lines = [command_line(child) for child in psutil.Process().children() if child.pid != shared_server_pid()]
            seen.extend(
                line for line in lines if "probes." in line
            )  # other tests may leave helpers (a resource tracker)

    evidence = run_probes(["selftest"], budget_s=20, device="cpu", on_event=on_event, settings=SETTINGS)
    assert seen and all("probes.harness.worker" in line for line in seen)
    assert all(case.status == "ok" for case in evidence.cases)


PARENT = """
import sys, time
from pathlib import Path
from probes.harness import forkserver
from probes.harness.isolation import _child_environment
server = forkserver.shared_server(_child_environment(), Path(sys.argv[1]))
server.wait_ready()
print(server.pid, flush=True)
time.sleep(300)
"""


def test_the_server_dies_with_its_killed_parent(tmp_path: Path):
    root = Path(__file__).resolve().parents[2]
    environment = {**os.environ, "PYTHONPATH": str(root)}
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, str(tmp_path)], stdout=subprocess.PIPE, text=True, env=environment
    )
    try:
        server = int(parent.stdout.readline())  # type: ignore[union-attr]
        assert psutil.pid_exists(server)
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 30
    while psutil.pid_exists(server) and psutil.Process(server).status() != psutil.STATUS_ZOMBIE:
        assert time.monotonic() < deadline, "the fork server outlived its parent"
        time.sleep(0.1)


def test_the_cpu_of_forked_children_counts_as_our_own_not_as_contention():
    from probes.harness.contention import ContentionMeter
    from probes.harness.forkserver import forked_cpu_seconds

    before = forked_cpu_seconds()
    meter = ContentionMeter.start()
    run_probes(["selftest"], budget_s=8, device="cpu", settings=SETTINGS)
    spent = forked_cpu_seconds() - before
    assert spent > 0.2  # the workers' CPU came back with their exit, and the server's own is counted
    # Without it, the workers (children of the server, reaped there) would count as another process's load.
    assert meter.result().other_cpu_share < 1.0
