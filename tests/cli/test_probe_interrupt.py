"""A real Ctrl-C (SIGINT) to `advisor probe`: exit 130, the evidence of what was measured is saved."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import psutil

from probes.models import Evidence


def test_sigint_keeps_what_was_measured(tmp_path):
    out = tmp_path / "evidence.json"
    # The hang fault keeps the run busy after the first cases are measured, so the signal lands mid-run.
    environment = {**os.environ, "ADVISOR_SELFTEST_FAULTS": "hang"}
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
    time.sleep(12)  # child start-up (~2 s) and the matmul cases before the hanging one
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
