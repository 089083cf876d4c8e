"""Repeatability: run the GEMM probe N times; coefficient of variation of each case's median.

    .venv/bin/python bench/bench_repeatability.py [--runs 5] [--budget 20] [--device cpu]

A case's CV = stdev / mean of its N medians; the figures are the median and the worst CV over the
cases timed in every run (ratios, so they hold on any machine), for two medians: that of all the
case's samples (the record's figure) and that of its fastest visit (what `advisor compare` reads,
advisor/comparison/visits.py). "Supported": timed, failed or starved of time in some run; not the
cases skipped as unsupported or untimed by design (Triton's interpreter on CPU).

The reference in the same run is the machine itself: the CV of the machine-speed reference kernel
(probes/harness/reference.py) over every probe child of every run, and its slowest / fastest. A
case's CV cannot be expected to sit far below the machine's own (CPU runs only; it has no
reference kernel on accelerators).
"""

from __future__ import annotations

import argparse
import statistics
import time

from advisor.comparison.models import VerdictRule
from advisor.comparison.visits import judged_visit
from probes.harness.session import starved
from probes.runner import run_probes


def summary(label: str, variations: dict[str, float]) -> str:
    if not variations:
        return f"{label}: no case timed in every run"
    return f"{label}: median CV {statistics.median(variations.values()):.1%}, worst CV {max(variations.values()):.1%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--budget", type=float, default=20.0)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--probe", default="gemm")
    arguments = parser.parse_args()
    if arguments.runs < 2:
        parser.error("--runs must be at least 2: a CV needs two medians")
    medians: dict[str, list[float]] = {}
    judged: dict[str, list[float]] = {}
    supported: set[str] = set()
    reference_times: list[float] = []
    min_samples = VerdictRule().min_samples
    started = time.perf_counter()
    for _ in range(arguments.runs):
        evidence = run_probes([arguments.probe], budget_s=arguments.budget, device=arguments.device)
        reference_times.extend(seconds for run in evidence.probe_runs for seconds in run.reference_s)
        for case in evidence.cases:
            if case.status in ("ok", "failed") or starved(case):  # not: unsupported, or untimed by design
                supported.add(case.key.case_id)
            if case.status == "ok" and case.timing is not None:
                medians.setdefault(case.key.case_id, []).append(case.timing.stats.median)
                visit = judged_visit(case.timing, min_samples).samples
                judged.setdefault(case.key.case_id, []).append(statistics.median(visit))
    complete = [case_id for case_id, values in medians.items() if len(values) == arguments.runs]
    variations = {
        case_id: statistics.stdev(medians[case_id]) / statistics.mean(medians[case_id]) for case_id in complete
    }
    judged_variations = {
        case_id: statistics.stdev(judged[case_id]) / statistics.mean(judged[case_id]) for case_id in complete
    }
    print(
        f"{arguments.runs} runs of '{arguments.probe}' at --budget {arguments.budget:g}: {time.perf_counter() - started:.1f} s"
    )
    print(f"cases timed in every run: {len(complete)} of {len(supported)} supported ({len(medians)} timed in some run)")
    for case_id in sorted(complete, key=lambda case_id: judged_variations[case_id]):
        print(
            f"  CV {variations[case_id]:6.1%} all samples, {judged_variations[case_id]:6.1%} fastest visit  {case_id}"
        )
    print(summary("all samples", variations))
    print(summary("fastest visit", judged_variations))
    if len(reference_times) >= 2:
        spread = statistics.stdev(reference_times) / statistics.mean(reference_times)
        print(
            f"machine reference kernel, {len(reference_times)} probe children: CV {spread:.1%}, "
            f"slowest / fastest {max(reference_times) / min(reference_times):.2f}"
        )


if __name__ == "__main__":
    main()
