"""Cases timed at the default budget: of the cases this device supports, how many came back with a timing.

    .venv/bin/python bench/bench_cases_timed.py [--budget 60] [--probes gemm attention ...] [--burners N]

Runs `advisor probe --budget B` (every default probe, or the ones named) as a user would, then counts per
probe. "Supported" leaves out cases the device cannot run (skipped: unsupported, not enabled) and the
ones checked for correctness only by design (Triton's CPU interpreter: not-timed, its speed means
nothing); the figure is timed / supported, the issue's goal >= 90%. The reference in the same run is the
plan: how many cases the probes planned for the budget. `--burners N` starts N CPU-burning processes for the
run (a busy host) and stops them after. It also gives the decision inputs of the default profile (dense-transformer
inference on this machine's family) that got at least one timed case, and the confidence the samples reached:
the median over timed cases of the relative half-width of the median's CI.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from probes.models import Evidence, ProbeCase  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from burners import burners  # noqa: E402

UNTIMED_BY_DESIGN = "Triton interpreter on CPU"


def supported(case: ProbeCase) -> bool:
    """The device can run it and it is meant to be timed."""
    if case.status == "skipped" and (case.reason or "").startswith(("unsupported", "not enabled")):
        return False
    return not (case.status == "not-timed" and (case.reason or "").startswith(UNTIMED_BY_DESIGN))


def timed(case: ProbeCase) -> bool:
    """It ran and was timed."""
    return case.status == "ok" and case.timing is not None


def count(cases: Sequence[ProbeCase]) -> tuple[int, int, Counter[str]]:
    """(timed, supported, why the supported untimed ones were not timed)."""
    chosen = [case for case in cases if supported(case)]
    why = Counter((case.reason or case.status)[:60] for case in chosen if not timed(case))
    return sum(1 for case in chosen if timed(case)), len(chosen), why


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--probes", nargs="*", default=[])
    parser.add_argument("--burners", type=int, default=0, help="CPU-burning processes beside the run")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, burners(arguments.burners):
        out = Path(folder) / "evidence.json"
        started = time.perf_counter()
        command = [
            sys.executable,
            "-m",
            "advisor",
            "probe",
            *arguments.probes,
            "--budget",
            str(arguments.budget),
            "--out",
            str(out),
        ]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
        wall = time.perf_counter() - started
        evidence = Evidence.load(out)
    print(f"burners: {arguments.burners}")
    print(
        f"advisor probe {' '.join(arguments.probes) or '(all)'} --budget {arguments.budget:g}: wall {wall:.1f} s = "
        f"{wall / arguments.budget:.2f} x budget; host busy: {bool(evidence.host_contention and evidence.host_contention.busy)}"
    )
    print(f"{'probe':<10} {'planned':>7} {'supported':>9} {'timed':>5} {'timed/supported':>15}  why not timed")
    all_timed = all_supported = 0
    for run in evidence.probe_runs:
        cases = [case for case in evidence.cases if case.key.probe == run.probe]
        done, able, why = count(cases)
        all_timed, all_supported = all_timed + done, all_supported + able
        share = f"{done / able:.0%}" if able else "-"
        print(f"{run.probe:<10} {len(cases):>7} {able:>9} {done:>5} {share:>15}  {dict(why.most_common(2)) or ''}")
    if all_supported:
        print(
            f"{'all':<10} {len(evidence.cases):>7} {all_supported:>9} {all_timed:>5} {all_timed / all_supported:>15.0%}"
        )
    print(decision_inputs_line(evidence))
    print(confidence_line(evidence))


def decision_inputs_line(evidence: Evidence) -> str:
    """The default profile's decision inputs with at least one timed case, of those it has."""
    from advisor.profile import Profile
    from advisor.recommendation.inputs import decision_inputs
    from probes.environment.family import environment_family

    family = environment_family(evidence.environment) or "x86-cpu"
    profile = Profile(model_type="dense-transformer", hardware=family, workload="inference", team_skill="framework")
    inputs = decision_inputs(profile)
    measured = [
        item.probe for item in inputs if any(case.key.probe == item.probe and timed(case) for case in evidence.cases)
    ]
    missing = [item.probe for item in inputs if item.probe not in measured]
    return f"decision inputs of the default profile with a timed case: {len(measured)} of {len(inputs)}" + (
        f" (none for {', '.join(missing)})" if missing else ""
    )


def confidence_line(evidence: Evidence) -> str:
    """How sure the timed medians are: the median, over timed cases, of the median CI's half-width / median."""
    import statistics

    widths = evidence.ci_half_widths()
    if not widths:
        return "confidence reached: no timed case"
    return (
        f"confidence reached: median CI half-width {statistics.median(widths):.1%} of the median over "
        f"{len(widths)} timed cases (the harness aims at {evidence.config.settings.ci_target:.0%})"
    )


if __name__ == "__main__":
    main()
