"""A/A: probe this machine twice and compare the runs; then again with B's samples made 5% and 10% slower.

    .venv/bin/python bench/bench_aa.py [--budget 60] [--probes gemm attention] [--out DIR] [--reuse A.json B.json]
                                       [--interleave]

Runs `python -m advisor probe <probes> --budget <s> --out <file>` twice, as a user would, then
`compare_evidence(A, B)`. Every figure is a share of this run's own cases: SAME / UNCERTAIN /
FASTER / SLOWER of the comparable cases (timed in both runs), comparable of the cases timed in a
run. Issue 16's goals: >= 80% SAME, <= 2% FASTER/SLOWER, >= 90% comparable, and a 10% slowdown found.
The references are measured in the same run: A against itself (every timed case SAME) and A against
A x 1.10 (the slowdown without run-to-run noise: the most a comparison can find). Per probe (issue 32): the
verdict on each probe's cases together (the median of their B/A against a 2.5% band; not normalised by the
machine-speed reference kernel, which was measured to add error), for A/A and for B made 5% and 10% slower,
and the share of probes (with enough comparable cases) found SLOWER. `--interleave` runs
A and B probe by probe, alternating, so both sides see the same stretch of a machine whose speed drifts
over minutes; the two whole runs one after the other are the default and the issue's figure.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from advisor.comparison import Comparison, VerdictRule, compare_evidence
from probes.models import Evidence

SLOWDOWN = 1.10
SLOWDOWNS = (1.05, 1.10)
TIMED = ("SAME", "UNCERTAIN", "FASTER", "SLOWER")


def probe(probes: list[str], budget_s: float, out: Path) -> float:
    """One `advisor probe` run written to `out`; its wall time in seconds."""
    started = time.perf_counter()
    command = [sys.executable, "-m", "advisor", "probe", *probes, "--budget", f"{budget_s:g}", "--out", str(out)]
    finished = subprocess.run(command, capture_output=True, text=True, check=False)
    if finished.returncode != 0 or not out.exists():
        sys.exit(f"advisor probe failed ({finished.returncode}):\n{finished.stderr[-2000:]}")
    return time.perf_counter() - started


def interleaved(probes: list[str], budget_s: float, out: Path) -> tuple[Path, Path]:
    """A and B run probe by probe, alternating (A gemm, B gemm, A attention, ...), each probe with its part of
    the budget; each side's files joined into one evidence file. Both sides then see the same stretch of the
    machine, which two whole runs one after the other do not."""
    parts: dict[str, list[Evidence]] = {"A": [], "B": []}
    for name in probes:
        for side in ("A", "B"):
            path = out / f"{side}-{name}.json"
            seconds = probe([name], budget_s / len(probes), path)
            print(f"  {side} {name} --budget {budget_s / len(probes):g}: {seconds:.0f} s")
            parts[side].append(Evidence.load(path))
    paths = []
    for side, runs in parts.items():
        first = runs[0]
        joined = first.model_copy(
            update={
                "cases": [case for run in runs for case in run.cases],
                "probe_runs": [probe_run for run in runs for probe_run in run.probe_runs],
                "config": first.config.model_copy(update={"probes": probes}),
                "finished_at": runs[-1].finished_at,
            }
        )
        path = out / f"{side}.json"
        joined.save(path)
        paths.append(path)
    return paths[0], paths[1]


def slowed(evidence: Evidence, factor: float) -> Evidence:
    """A copy whose every timing sample takes `factor` times as long (statistics derived again, visits kept)."""
    cases = [
        case.model_copy(update={"timing": case.timing.scaled(factor)}) if case.timing else case
        for case in evidence.cases
    ]
    return evidence.model_copy(update={"cases": cases})


def share(part: int, whole: int) -> str:
    return f"{part / whole:6.1%}" if whole else "     -"


def verdict_line(label: str, comparison: Comparison) -> str:
    """Counts and shares of the timed verdicts, and how many of the timed cases could be compared."""
    counts = comparison.verdict_counts
    summary = comparison.summary
    comparable = summary.comparable
    parts = [f"{verdict} {counts[verdict]:3d} {share(counts[verdict], comparable)}" for verdict in TIMED]
    changed = counts["FASTER"] + counts["SLOWER"]
    not_comparable = summary.timed_cases - comparable
    return (
        f"{label:<26} {' | '.join(parts)} | FASTER+SLOWER {share(changed, comparable)} | "
        f"comparable {comparable}/{summary.timed_cases} {share(comparable, summary.timed_cases)} | "
        f"not comparable {not_comparable} {share(not_comparable, summary.timed_cases)} | "
        f"not measured {summary.not_measured}"
    )


def detection_line(label: str, comparison: Comparison) -> str:
    """The share of comparable cases called SLOWER, over all of them and over the quiet ones (no side noisy)."""
    timed = [case for case in comparison.cases if case.timing is not None and case.verdict in TIMED]
    quiet = [case for case in timed if case.timing is not None and not (case.timing.noisy_a or case.timing.noisy_b)]
    slower_all = sum(case.verdict == "SLOWER" for case in timed)
    slower_quiet = sum(case.verdict == "SLOWER" for case in quiet)
    faster = sum(case.verdict == "FASTER" for case in timed)
    return (
        f"{label:<26} SLOWER {slower_all}/{len(timed)} {share(slower_all, len(timed))} of comparable, "
        f"{slower_quiet}/{len(quiet)} {share(slower_quiet, len(quiet))} of quiet ones | FASTER {faster}"
    )


def probe_lines(label: str, comparison: Comparison) -> list[str]:
    """Each probe's verdict, and the share of the judged probes called SLOWER."""
    verdicts = comparison.probes
    slower = sum(verdict.verdict == "SLOWER" for verdict in verdicts)
    lines = [f"{label:<26} per probe: SLOWER {slower}/{len(verdicts)} {share(slower, len(verdicts))} of probes judged"]
    lines += [f"{'':<28}{verdict.line()}" for verdict in verdicts]
    return lines


def contention(evidence: Evidence) -> str:
    host = evidence.host_contention
    if host is None:
        return "not measured"
    return f"other processes {host.other_cpu_share:.0%} of the CPU ({'busy' if host.busy else 'quiet'})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--probes", nargs="+", default=["gemm", "attention"])
    parser.add_argument("--out", type=Path, help="Folder for A.json and B.json (default: a new temporary folder)")
    parser.add_argument(
        "--reuse", nargs=2, type=Path, metavar=("A.json", "B.json"), help="Compare these instead of probing"
    )
    parser.add_argument(
        "--interleave",
        action="store_true",
        help="Run A and B probe by probe, alternating, instead of one whole run after the other",
    )
    arguments = parser.parse_args()
    if arguments.reuse:
        path_a, path_b = arguments.reuse
    elif arguments.interleave:
        out = arguments.out or Path(tempfile.mkdtemp(prefix="bench-aa-"))
        out.mkdir(parents=True, exist_ok=True)
        print(f"A and B interleaved, probe by probe -> {out}")
        path_a, path_b = interleaved(arguments.probes, arguments.budget, out)
    else:
        out = arguments.out or Path(tempfile.mkdtemp(prefix="bench-aa-"))
        out.mkdir(parents=True, exist_ok=True)
        path_a, path_b = out / "A.json", out / "B.json"
        for path in (path_a, path_b):
            print(
                f"probe {' '.join(arguments.probes)} --budget {arguments.budget:g} -> {path}: "
                f"{probe(arguments.probes, arguments.budget, path):.0f} s"
            )
    a, b = Evidence.load(path_a), Evidence.load(path_b)
    print(f"A: {contention(a)}; B: {contention(b)}")
    started = time.perf_counter()
    aa = compare_evidence(a, b)
    print(verdict_line("A/A (A vs B)", aa))
    print(
        f"{'':<26} median B/A {aa.summary.median_ratio or float('nan'):.3f}, "
        f"band +/-{aa.summary.band_min or 0:.0%} to +/-{aa.summary.band_max or 0:.0%}, to re-measure {aa.summary.to_remeasure}"
    )
    if aa.machine_ratios:
        print(
            f"{'':<26} machine reference kernel B/A: "
            + ", ".join(f"{probe} {ratio:.3f}" for probe, ratio in aa.machine_ratios.items())
        )
    print("\n".join(probe_lines("A/A (A vs B)", aa)))
    print(verdict_line("reference: A vs A", compare_evidence(a, a)))
    for factor in SLOWDOWNS:
        slower = compare_evidence(a, slowed(b, factor))
        print(detection_line(f"A vs B x {factor:.2f}", slower))
        print("\n".join(probe_lines(f"A vs B x {factor:.2f}", slower)))
        reference = compare_evidence(a, slowed(a, factor))
        print(detection_line(f"reference: A vs A x {factor:.2f}", reference))
        print("\n".join(probe_lines(f"reference: A vs A x {factor:.2f}", reference)))
    if any(evidence.host_contention is not None and evidence.host_contention.busy for evidence in (a, b)):
        # On a busy host every change is UNCERTAIN by rule; what the samples alone would say, for reference.
        unguarded = VerdictRule(busy_host_blocks_change=False)
        print("a run's host was busy, so no change can be called; with that guard off:")
        print(verdict_line("  A/A (A vs B)", compare_evidence(a, b, unguarded)))
        print(detection_line(f"  A vs B x {SLOWDOWN:.2f}", compare_evidence(a, slowed(b, SLOWDOWN), unguarded)))
        print(detection_line(f"  ref: A vs A x {SLOWDOWN:.2f}", compare_evidence(a, slowed(a, SLOWDOWN), unguarded)))
    summary = aa.summary
    goals = [
        ("SAME >= 80% of comparable", summary.same_share is not None and summary.same_share >= 0.80),
        ("FASTER/SLOWER <= 2% of comparable", summary.changed_share is not None and summary.changed_share <= 0.02),
        ("comparable >= 90% of timed cases", summary.comparable_share is not None and summary.comparable_share >= 0.90),
    ]
    print("goals: " + ", ".join(f"{name}: {'met' if met else 'NOT met'}" for name, met in goals))
    print(f"comparisons: {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
