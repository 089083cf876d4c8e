"""The whole suite as a user runs it: `advisor probe --budget B`; wall time vs budget, best fp32 GEMM % of peak.

    .venv/bin/python bench/bench_suite.py [--budget 60]

Figures: wall / budget (the budget is honoured within 10% when <= 1.10), per-probe wall and case
counts, and the best fp32 GEMM throughput as a share of the CPU's theoretical peak (`advisor env`).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from probes.models import Evidence


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=60.0)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "evidence.json"
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "advisor", "probe", "--budget", str(arguments.budget), "--out", str(out)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        wall = time.perf_counter() - started
        evidence = Evidence.load(out)
    print(f"advisor probe --budget {arguments.budget:g}: wall {wall:.1f} s = {wall / arguments.budget:.3f} x budget")
    for run in evidence.probe_runs:
        statuses = Counter(case.status for case in evidence.cases if case.key.probe == run.probe)
        print(f"  {run.probe:<10} {run.status:<11} {run.wall_s:6.1f} s  share {run.share_s:5.1f} s  {dict(statuses)}")
    gemm = [
        case
        for case in evidence.cases
        if case.key.probe == "gemm" and case.key.dtype == "fp32" and "pct_of_peak" in case.metrics
    ]
    if gemm:
        best = max(gemm, key=lambda case: case.metrics["pct_of_peak"].value)
        peak = evidence.environment.peak_for("cpu")
        print(
            f"best fp32 GEMM: {best.metrics['tflops'].value * 1e3:.1f} GFLOP/s = {best.metrics['pct_of_peak'].value:.1f}%"
            f" of the {peak.tflops['fp32'] * 1e3:.1f} GFLOP/s theoretical peak ({best.key.case_id})"
        )


if __name__ == "__main__":
    main()
