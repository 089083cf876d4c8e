"""How long `advisor assess` takes to stop after Ctrl-C or SIGTERM, at several moments of a real run.

    .venv/bin/python bench/bench_stop_latency.py [--runs 2] [--at 1 3 6 10 20] [--budget 60] [--burners 0]

Each run starts `advisor assess --yes` (the default profile and probes) in a fresh git repository, in its own
process group as a terminal's job, sends the signal to the group `--at` seconds after the start (detection,
then the probes the run has reached by then) and times signal-to-exit. It checks what the issue asks of a stop:
exit 128 + the signal, the evidence kept once probing began (its path printed), no record written, no process
of the run left and nothing left in its private TMPDIR.

The reference, measured in the same run: the same signal to a bare `python -c 'time.sleep(...)'` in its own
group, which is what the host itself takes to deliver a signal, unwind an interpreter and reap it. Figures are
printed in seconds and as ratios against that reference; the issue's goal is a stop within 2 s.
`--burners N` starts N CPU-burning processes for the length of the bench (a busy host) and stops them after.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from burners import burners  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GOAL_S = 2.0
KEPT = re.compile(r"evidence kept in (\S+\.evidence\.json)")
SIGNALS = {"INT": signal.SIGINT, "TERM": signal.SIGTERM}


@dataclass(frozen=True)
class StopTime:
    """One signalled run: when it was signalled, how long it took to exit, and whether the stop was clean."""

    at_s: float
    number: signal.Signals
    latency_s: float
    clean: bool
    why: str


def _as_a_terminal_job() -> None:
    """SIGINT as a terminal's job has it, even when this bench runs in the background of a non-interactive shell
    (which starts its jobs with SIGINT ignored: a bare interpreter would then sleep through the reference)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def signalled(
    command: list[str], cwd: Path, at_s: float, number: signal.Signals, env: dict[str, str]
) -> tuple[subprocess.Popen[str], float, list[psutil.Process], str]:
    """Start `command` as a job of its own, signal its group `at_s` seconds later; (process, latency, descendants
    seen just before the signal, stderr)."""
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_as_a_terminal_job,
    )
    time.sleep(at_s)
    try:
        seen = psutil.Process(process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        seen = []
    sent = time.perf_counter()
    os.killpg(process.pid, number)
    _, stderr = process.communicate(timeout=120)
    return process, time.perf_counter() - sent, seen, stderr


def reference_stop(number: signal.Signals) -> float:
    """Signal-to-exit of a bare sleeping interpreter, in its own group."""
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-c", "import time; time.sleep(600)"]
        return signalled(command, Path(folder), 0.5, number, dict(os.environ))[1]


def assess_stop(at_s: float, number: signal.Signals, budget: float) -> StopTime:
    """One `advisor assess --yes` signalled `at_s` seconds after its start, checked for a clean stop."""
    with tempfile.TemporaryDirectory(prefix="bench-stop-") as folder:
        project = Path(folder) / "project"
        tmp = Path(folder) / "tmp"
        tmp.mkdir()
        subprocess.run(["git", "init", "-q", str(project)], check=True)
        env = {
            **os.environ,
            "TMPDIR": str(tmp),
            "GIT_AUTHOR_NAME": "bench",
            "GIT_AUTHOR_EMAIL": "b@localhost",
            "GIT_COMMITTER_NAME": "bench",
            "GIT_COMMITTER_EMAIL": "b@localhost",
        }
        command = [sys.executable, "-m", "advisor", "assess", "--yes", "--budget", str(budget)]
        process, latency, seen, stderr = signalled(command, project, at_s, number, env)
        problems = []
        if process.returncode != 128 + number:
            problems.append(f"exit {process.returncode}")
        if "interrupted (SIG" not in stderr:  # before probing began there is no evidence to keep, only this line
            problems.append("no 'interrupted' line")
        records = project / "records"
        if records.is_dir() and any(path.suffix == ".md" for path in records.iterdir()):
            problems.append("a record was written")
        _, alive = psutil.wait_procs(seen, timeout=5)
        if [child for child in alive if child.status() != psutil.STATUS_ZOMBIE]:
            problems.append(f"{len(alive)} process(es) left")
        if any(tmp.iterdir()):
            problems.append("temporary folders left")
        kept = f"evidence kept: {Path(found.group(1)).name}" if (found := KEPT.search(stderr)) else "before probing"
        return StopTime(at_s, number, latency, not problems, ", ".join(problems) or kept)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2, help="runs per moment and signal")
    parser.add_argument(
        "--at", type=float, nargs="+", default=[1.0, 3.0, 6.0, 10.0, 20.0], help="seconds after the start"
    )
    parser.add_argument("--signals", nargs="+", choices=sorted(SIGNALS), default=["INT", "TERM"])
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--burners", type=int, default=0, help="CPU-burning processes beside the bench")
    arguments = parser.parse_args()
    stops: list[StopTime] = []
    references: list[float] = []
    with burners(arguments.burners):
        for _ in range(arguments.runs):
            for name in arguments.signals:
                references.append(reference_stop(SIGNALS[name]))
                for at_s in arguments.at:
                    stop = assess_stop(at_s, SIGNALS[name], arguments.budget)
                    stops.append(stop)
                    print(
                        f"  SIG{name:<4} at {at_s:5.1f} s: stopped in {stop.latency_s:5.2f} s "
                        f"({'clean' if stop.clean else 'NOT CLEAN'}: {stop.why})",
                        flush=True,
                    )
    reference = statistics.median(references)
    print(
        f"\nburners: {arguments.burners}; reference (bare interpreter, signal to exit): median {reference:.3f} s "
        f"of {len(references)}"
    )
    print(f"{'moment':>10} {'runs':>5} {'median s':>9} {'max s':>7} {'max/ref':>8} {'max/goal':>9} {'clean':>6}")
    for at_s in arguments.at:
        latencies = [stop.latency_s for stop in stops if stop.at_s == at_s]
        clean = sum(stop.clean for stop in stops if stop.at_s == at_s)
        print(
            f"{at_s:>9.1f}s {len(latencies):>5} {statistics.median(latencies):>9.2f} {max(latencies):>7.2f} "
            f"{max(latencies) / reference:>8.1f} {max(latencies) / GOAL_S:>9.2f} {clean:>3}/{len(latencies)}"
        )
    worst = max(stop.latency_s for stop in stops)
    print(
        f"worst {worst:.2f} s = {worst / GOAL_S:.2f}x the {GOAL_S:.0f} s goal; "
        f"{sum(stop.clean for stop in stops)}/{len(stops)} stops clean"
    )


if __name__ == "__main__":
    main()
