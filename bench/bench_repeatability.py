"""Repeatability: run the GEMM probe N times; coefficient of variation of each case's median.

    .venv/bin/python bench/bench_repeatability.py [--runs 5] [--budget 20] [--device cpu]

A case's CV = stdev / mean of its N medians; the figures are the median and the worst CV over the
cases timed in every run (ratios, so they hold on any machine).
"""

from __future__ import annotations

import argparse
import statistics
import time

from probes.runner import run_probes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--budget", type=float, default=20.0)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--probe", default="gemm")
    arguments = parser.parse_args()
    medians: dict[str, list[float]] = {}
    started = time.perf_counter()
    for _ in range(arguments.runs):
        evidence = run_probes([arguments.probe], budget_s=arguments.budget, device=arguments.device)
        for case in evidence.cases:
            if case.status == "ok" and case.timing is not None:
                medians.setdefault(case.key.case_id, []).append(case.timing.stats.median)
    complete = {case_id: values for case_id, values in medians.items() if len(values) == arguments.runs}
    variations = {case_id: statistics.stdev(values) / statistics.mean(values) for case_id, values in complete.items()}
    print(f"{arguments.runs} runs of '{arguments.probe}' at --budget {arguments.budget:g}: {time.perf_counter() - started:.1f} s")
    print(f"cases timed in every run: {len(complete)} of {len(medians)}")
    for case_id, variation in sorted(variations.items(), key=lambda item: item[1]):
        print(f"  CV {variation:6.1%}  {case_id}")
    if variations:
        print(f"median CV {statistics.median(variations.values()):.1%}, worst CV {max(variations.values()):.1%}")


if __name__ == "__main__":
    main()
