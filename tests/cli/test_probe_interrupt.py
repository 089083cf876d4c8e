"""A real Ctrl-C (SIGINT) to `advisor probe`: exit 130, the evidence of what was measured is saved."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import psutil

from probes.models import Evidence
from probes.selftest.faults import FAULTS_ENV, hang_began

START_GUARD_S = 300.0  # a hang guard for torch's first import and the matmul cases on a busy host, not a budget


def test_sigint_keeps_what_was_measured(tmp_path):
    out = tmp_path / "evidence.json"
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    # The hang fault keeps the run busy after the first cases are measured, so the signal lands mid-run; a private
    # TMPDIR holds the child's log, where the hang announces itself.
    environment = {**os.environ, FAULTS_ENV: "hang", "TMPDIR": str(tmp)}
    process = subprocess.Popen(
        [sys.executable, "-m", "advisor", "probe", "selftest", "--budget", "60", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        # A shell that starts this test in the background (`cmd &` without job control) ignores SIGINT,
        # and Python keeps an inherited SIG_IGN: restore the default so the CLI gets its KeyboardInterrupt.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + START_GUARD_S
    while not hang_began(tmp):  # the matmul cases before the hanging one are measured by then
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"the hang case did not start within {START_GUARD_S:.0f} s"
        time.sleep(0.05)
    workers = psutil.Process(process.pid).children(recursive=True)
    assert workers, "the probe's child process should be running"
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    evidence = Evidence.load(out)
    assert evidence.interrupted
    assert any(case.status == "ok" for case in evidence.cases)
    assert "interrupted" in stdout
    assert "Traceback" not in stderr
    _, alive = psutil.wait_procs(workers, timeout=5)
    assert alive == [], "no probe child may outlive an interrupted run"
