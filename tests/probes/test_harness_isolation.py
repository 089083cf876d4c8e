"""Failure isolation: a segfault, a hang, an exception, an out-of-memory and a wrong answer in one probe
are each recorded as a failed case with its reason, while its other cases and the next probe are measured.

One suite run per start mode (about 12 s warm, 25 s cold on a quiet machine) serves every test here.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from probes.environment.detect import detect_environment
from probes.harness.events import CaseDone, ProbeDone, ProbeEvent, ProbeStarted
from probes.harness.forkserver import FORKSERVER_ENV
from probes.models import Evidence, HarnessSettings, ProbeCase
from probes.registry import EXTRA_PROBE_DIRS_ENV
from probes.runner import run_probes
from probes.selftest.faults import FAULTS_ENV

# Headroom for three cold child start-ups on a host running other suites (30 s ran out under about 3x
# oversubscription); timed cases stop at max_samples and faults at their grace, so a quiet run stays near 12 s warm
# and 25 s cold.
BUDGET_S = 90.0
SECOND_PROBE = """
from probes.registry import Probe
from probes.selftest.probe import add_torch, selftest_cases

PROBE = Probe(
    name="second",
    description="The selftest's add, as a second probe after the faulty one.",
    cases=lambda device, share_s: [case for case in selftest_cases(device, share_s) if case.options["op"] == "add"],
)
"""
# A hang is declared 0.5 s (+25% of its part) after its part; few samples: this tests isolation, not precision.
SETTINGS = HarnessSettings(case_grace_s=0.5, warmup_s=0.02, max_samples=200)


class Suite:
    def __init__(self, evidence: Evidence, events: list[ProbeEvent], wall_s: float) -> None:
        self.evidence, self.events, self.wall_s = evidence, events, wall_s

    def case(self, implementation: str, probe: str = "selftest") -> ProbeCase:
        return next(c for c in self.evidence.cases if c.key.implementation == implementation and c.key.probe == probe)


@pytest.fixture(scope="module", params=["warm", "cold"])
def suite(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Suite]:
    """The faulty run, with children forked by the warm fork server and, again, started cold."""
    extra = tmp_path_factory.mktemp("extra-probes")
    (extra / "second").mkdir()
    (extra / "second" / "probe.py").write_text(SECOND_PROBE)
    events: list[ProbeEvent] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(FAULTS_ENV, "segfault,hang,raise,oom,wrong")
        patch.setenv(EXTRA_PROBE_DIRS_ENV, str(extra))
        patch.setenv(FORKSERVER_ENV, "1" if request.param == "warm" else "0")
        began = time.monotonic()
        evidence = run_probes(
            ["selftest", "second"],
            budget_s=BUDGET_S,
            device="cpu",
            on_event=events.append,
            settings=SETTINGS,
            environment=detect_environment(),
        )
        yield Suite(evidence, events, time.monotonic() - began)


def test_segfault_is_a_failed_case_with_its_signal(suite: Suite) -> None:
    case = suite.case("fault.segfault")
    assert (case.status, case.reason) == ("failed", "crashed: segmentation fault (SIGSEGV)")


def test_hang_is_killed_and_recorded(suite: Suite) -> None:
    case = suite.case("fault.hang")
    assert case.status == "failed"
    assert case.reason is not None and case.reason.startswith("hung")
    assert case.wall_s > SETTINGS.case_grace_s  # it was given its share and the grace first


def test_exception_and_out_of_memory_are_failed_cases(suite: Suite) -> None:
    raised = suite.case("fault.raise")
    assert (raised.status, raised.reason) == ("failed", "raised RuntimeError: selftest fault: a deliberate exception")
    oom = suite.case("fault.oom")
    assert oom.status == "failed" and oom.reason is not None and oom.reason.startswith("out of memory")


def test_wrong_answer_fails_its_tolerance(suite: Suite) -> None:
    case = suite.case("fault.wrong")
    assert case.status == "failed" and case.numeric is not None and not case.numeric.passed
    assert case.numeric.max_abs == pytest.approx(1e-2, rel=1e-3)
    assert case.numeric.atol == 1e-4


def test_cases_before_and_after_the_faults_are_measured(suite: Suite) -> None:
    real = [
        c for c in suite.evidence.cases if c.key.probe == "selftest" and not c.key.implementation.startswith("fault.")
    ]
    assert {c.key.implementation for c in real} == {"torch.matmul", "numpy.matmul", "torch.add", "numpy.add"}
    for case in real:
        assert case.status == "ok", case
        assert case.timing is not None and case.timing.stats.n >= 1
        assert case.numeric is not None and case.numeric.passed


def test_the_next_probe_still_runs(suite: Suite) -> None:
    second = suite.case("torch.add", probe="second")
    assert second.status == "ok" and second.timing is not None
    assert [run.probe for run in suite.evidence.probe_runs] == ["selftest", "second"]
    assert suite.evidence.probe_runs[1].status == "ok"


def test_probe_run_records_the_restarts_and_incidents(suite: Suite) -> None:
    run = suite.evidence.probe_runs[0]
    assert run.status == "ok" and run.restarts == 2  # after the hang and after the segfault
    assert any("SIGSEGV" in incident for incident in run.incidents)
    assert any("hung" in incident for incident in run.incidents)
    assert run.log_tail is not None and "Segmentation fault" in run.log_tail  # faulthandler's report
    assert run.sized_for_s == pytest.approx(BUDGET_S / 2)  # its half of the budget as asked, whatever start-up took


def test_events_stream_case_by_case(suite: Suite) -> None:
    kinds = [type(event).__name__ for event in suite.events]
    assert kinds[0] == "ProbeStarted" and kinds[-1] == "ProbeDone"
    done = [event for event in suite.events if isinstance(event, CaseDone)]
    assert len(done) == len(suite.evidence.cases)
    assert sum(isinstance(event, ProbeStarted) for event in suite.events) == 2
    assert sum(isinstance(event, ProbeDone) for event in suite.events) == 2


def test_budget_and_round_trip(suite: Suite, tmp_path: Path) -> None:
    assert suite.wall_s <= BUDGET_S * 1.10
    path = tmp_path / "evidence.json"
    suite.evidence.save(path)
    assert Evidence.load(path).to_text() == suite.evidence.to_text()  # the same, up to the lean form's rounding
    assert not suite.evidence.interrupted
    assert suite.evidence.config.probes == ["selftest", "second"] and suite.evidence.config.device == "cpu"


def test_a_killed_runs_temporary_folder_is_removed_by_the_next(tmp_path):
    from probes.harness.isolation import OWNER_FILE, TEMP_PREFIX, remove_orphaned_folders

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    orphan, live, foreign = tmp_path / f"{TEMP_PREFIX}a", tmp_path / f"{TEMP_PREFIX}b", tmp_path / f"{TEMP_PREFIX}c"
    for folder in (orphan, live, foreign):
        folder.mkdir()
    (orphan / OWNER_FILE).write_text(str(dead.pid))
    (live / OWNER_FILE).write_text(str(os.getpid()))
    assert remove_orphaned_folders(tmp_path) == [orphan]
    assert live.exists() and foreign.exists() and not orphan.exists()


def test_a_folder_interrupted_before_its_owner_file_is_judged_by_the_pid_in_its_name(tmp_path):
    # The run names its folder advisor-probe-<pid>-<hex> before making it: a SIGTERM between the folder and its owner
    # file leaves a folder whose name still says whose it was.
    from probes.harness.isolation import TEMP_PREFIX, remove_orphaned_folders

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    orphan = tmp_path / f"{TEMP_PREFIX}{dead.pid}-0a1b2c3d"
    live = tmp_path / f"{TEMP_PREFIX}{os.getpid()}-0a1b2c3d"
    for folder in (orphan, live):
        folder.mkdir()
    assert remove_orphaned_folders(tmp_path) == [orphan]
    assert live.exists() and not orphan.exists()


def test_the_fork_servers_folder_carries_its_owner_in_name_and_file():
    from probes.harness import isolation

    folder = isolation._forkserver_folder()
    try:
        assert folder.name.startswith(f"{isolation.TEMP_PREFIX}{os.getpid()}-")
        assert (folder / isolation.OWNER_FILE).read_text() == str(os.getpid())
    finally:
        isolation.stop_forkserver()
    assert not folder.exists()


def test_a_folder_made_just_before_an_interrupt_is_removed_when_the_process_exits(tmp_path):
    from probes.harness.isolation import TEMP_PREFIX

    # The window CI once hit: SIGTERM after a run's folder exists and before the code that removes it is entered.
    code = (
        "import os, signal\n"
        "from probes.harness.isolation import _make_own_folder\n"
        "print(_make_own_folder(), flush=True)\n"
        "os.kill(os.getpid(), signal.SIGINT)\n"
    )
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert "KeyboardInterrupt" in result.stderr, result.stderr
    made = Path(result.stdout.strip())
    assert made.parent == tmp_path and made.name.startswith(TEMP_PREFIX)
    assert list(tmp_path.iterdir()) == []


def test_a_worker_whose_parent_is_gone_exits_at_once():
    env = {**os.environ, "ADVISOR_PROBE_PARENT": "1", "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    code = "from probes.harness.worker import die_with_parent; die_with_parent(); print('still here')"
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "still here" not in result.stdout


def test_a_worker_dies_with_its_killed_parent():
    import signal

    root = str(Path(__file__).resolve().parents[2])
    parent_code = (
        "import os, subprocess, sys, time\n"
        "env = {**os.environ, 'ADVISOR_PROBE_PARENT': str(os.getpid())}\n"
        "child = subprocess.Popen([sys.executable, '-c', 'from probes.harness.worker import die_with_parent; "
        "die_with_parent(); import time; time.sleep(300)'], env=env, start_new_session=True)\n"
        "print(child.pid, flush=True)\n"
        "time.sleep(300)\n"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", parent_code], stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": root}
    )
    child_pid = int(parent.stdout.readline())
    time.sleep(1.0)  # let the child arm its death signal (a slow import only delays its own check)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    for _ in range(300):  # the kernel delivers the signal at once; poll generously for a loaded host
        try:
            os.kill(child_pid, 0)
            state = Path(f"/proc/{child_pid}/stat").read_text().split(") ")[-1][:1]
        except (ProcessLookupError, FileNotFoundError):
            break
        if state in ("Z", "X"):  # dead, waiting for an init that may never reap it
            break
        try:  # reap it if it became ours
            os.waitpid(child_pid, os.WNOHANG)
        except ChildProcessError:
            pass
        time.sleep(0.1)
    else:
        os.kill(child_pid, signal.SIGKILL)
        pytest.fail("the worker outlived its killed parent")
