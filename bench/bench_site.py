"""Site build time against the number of records, as ratios against the smallest site built in the same run.

    .venv/bin/python bench/bench_site.py [--sizes 50 200 500] [--runs 2] [--distinct-evidence]

Each size gets its own git repository of generated records (write_decision on the project's CPU
suite evidence, several profiles, one commit each). By default the records share that evidence, as a
fleet's records do, and the site writes its charts once; `--distinct-evidence` gives each record
evidence of its own (and so chart files of its own). The build is `advisor site build --strict` in a
child process (what a user runs), so each run pays MkDocs' start-up; a site with 0 records is the
fixed-cost reference. Growth exponent: the log-log slope of (time - fixed cost) between sizes; 1.0
is linear. Beside the wall time, the build's CPU time (user + system of the child process): on a
machine others are using too, it moves less than the wall time. Target from issue 16: 500 records
in <= 15 s.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from git import Repo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from advisor.profile import Needs, Profile  # noqa: E402
from advisor.recommendation.engine import recommend  # noqa: E402
from advisor.records.decision import write_decision  # noqa: E402
from probes.models import Evidence  # noqa: E402

SUITE = ROOT / "tests" / "fixtures" / "cpu-suite.json"
PROFILES = [
    Profile(
        model_type="dense-transformer",
        hardware="x86-cpu",
        workload="inference",
        team_skill="framework",
        needs=Needs(dynamic_shapes=True, long_context=True),
    ),
    Profile(model_type="moe", hardware="nvidia-gpu", workload="training", team_skill="kernel", needs=Needs(devices=8)),
    Profile(
        model_type="cnn",
        hardware="x86-cpu",
        workload="inference",
        team_skill="framework",
        needs=Needs(quantization="int8"),
    ),
    Profile(model_type="diffusion", hardware="ascend-npu", workload="both", team_skill="hpc"),
]


def make_records(root: Path, count: int, distinct_evidence: bool = False) -> Path:
    """`count` records in a fresh git repository, committed together. They share one evidence content (a fleet's
    suite), so its charts are one set of files; with `distinct_evidence`, each record's evidence differs (its start
    time), so each record has chart files of its own."""
    repo = Repo.init(root)
    with repo.config_writer() as config:
        config.set_value("user", "name", "bench")
        config.set_value("user", "email", "bench@example.com")
    suite = Evidence.load(SUITE)
    recommendations = [recommend(profile, [suite]) for profile in PROFILES]
    records_dir = root / "records"
    records_dir.mkdir(parents=True)
    start = dt.date(2024, 1, 1)
    for index in range(count):
        profile = PROFILES[index % len(PROFILES)]
        evidence = (
            suite.model_copy(update={"started_at": suite.started_at + dt.timedelta(seconds=index)})
            if distinct_evidence
            else suite
        )
        write_decision(
            recommendations[index % len(PROFILES)],
            [evidence],
            records_dir=records_dir,
            commit=False,
            title=f"{profile.model_type} on {profile.hardware}, team {index}",
            deciders=["bench"],
            date=start + dt.timedelta(days=index),
        )
    repo.git.add("--all")
    repo.git.commit("-q", "--allow-empty", "-m", f"{count} records")
    return records_dir


def build_seconds(records_dir: Path, out: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one `advisor site build --strict` in a child process."""
    started, cpu_before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "advisor",
            "site",
            "build",
            "--strict",
            "--config",
            str(ROOT / "mkdocs.yml"),
            "--records-dir",
            str(records_dir),
            "--out",
            str(out),
            "--today",
            "2026-06-01",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = cpu_after.ru_utime - cpu_before.ru_utime + cpu_after.ru_stime - cpu_before.ru_stime
    return time.perf_counter() - started, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200, 500])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument(
        "--distinct-evidence",
        action="store_true",
        help="give every record evidence of its own (by default all share one, as a fleet's records do)",
    )
    arguments = parser.parse_args()
    if any(size < 1 for size in arguments.sizes):
        parser.error("--sizes must be positive: the 0-record site is always built, as the fixed-cost reference")
    sizes = [0, *sorted(set(arguments.sizes))]
    with tempfile.TemporaryDirectory(prefix="bench-site-") as scratch:
        times: dict[int, float] = {}
        cpu_times: dict[int, float] = {}
        for size in sizes:
            records_dir = make_records(Path(scratch) / f"repo-{size}", size, arguments.distinct_evidence)
            runs = [build_seconds(records_dir, Path(scratch) / f"out-{size}") for _ in range(arguments.runs)]
            times[size] = statistics.median(wall for wall, _ in runs)
            cpu_times[size] = statistics.median(cpu for _, cpu in runs)
            print(
                f"built {size:4d} records: {times[size]:.2f} s, cpu {cpu_times[size]:.2f} s "
                f"(runs: {', '.join(f'{wall:.2f}' for wall, _ in runs)})",
                flush=True,
            )
    fixed = times[0]
    reference = sizes[1]
    print(f"\nfixed cost (0 records, MkDocs start-up and the static pages): {fixed:.2f} s, cpu {cpu_times[0]:.2f} s")
    print(
        f"{'records':>8} {'build s':>8} {'cpu s':>7} {'s/record':>9} {'cpu/record':>11} {'time ratio':>11} {'size ratio':>11} {'exponent':>9}"
    )
    for size in sizes[1:]:
        per_record = (times[size] - fixed) / size
        cpu_per_record = (cpu_times[size] - cpu_times[0]) / size
        ratio = (times[size] - fixed) / (times[reference] - fixed)
        exponent = math.log(ratio) / math.log(size / reference) if size != reference else float("nan")
        print(
            f"{size:8d} {times[size]:8.2f} {cpu_times[size]:7.2f} {per_record:9.4f} {cpu_per_record:11.4f} {ratio:11.2f} "
            f"{size / reference:11.2f} {exponent:9.2f}"
        )


if __name__ == "__main__":
    main()
