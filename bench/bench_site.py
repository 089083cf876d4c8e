"""Site build time against the number of records, as ratios against the smallest site built in the same run.

    .venv/bin/python bench/bench_site.py [--sizes 50 200 500] [--runs 2]

Each size gets its own git repository of generated records (write_decision on the project's CPU
suite evidence, several profiles, one commit each). The build is `advisor site build --strict` in a
child process (what a user runs), so each run pays MkDocs' start-up; a site with 0 records is the
fixed-cost reference. Growth exponent: the log-log slope of (time - fixed cost) between sizes; 1.0
is linear.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
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
    Profile(model_type="dense-transformer", hardware="x86-cpu", workload="inference", team_skill="framework",
            needs=Needs(dynamic_shapes=True, long_context=True)),
    Profile(model_type="moe", hardware="nvidia-gpu", workload="training", team_skill="kernel", needs=Needs(devices=8)),
    Profile(model_type="cnn", hardware="x86-cpu", workload="inference", team_skill="framework", needs=Needs(quantization="int8")),
    Profile(model_type="diffusion", hardware="ascend-npu", workload="both", team_skill="hpc"),
]  # fmt: skip


def make_records(root: Path, count: int) -> Path:
    """`count` records in a fresh git repository, committed together."""
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
        write_decision(recommendations[index % len(PROFILES)], [suite], records_dir=records_dir, commit=False,
                       title=f"{profile.model_type} on {profile.hardware}, team {index}", deciders=["bench"],
                       date=start + dt.timedelta(days=index))  # fmt: skip
    repo.git.add("--all")
    repo.git.commit("-q", "--allow-empty", "-m", f"{count} records")
    return records_dir


def build_seconds(records_dir: Path, out: Path) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "advisor", "site", "build", "--strict", "--config", str(ROOT / "mkdocs.yml"),
                    "--records-dir", str(records_dir), "--out", str(out), "--today", "2026-06-01"],
                   check=True, stdout=subprocess.DEVNULL)  # fmt: skip
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200, 500])
    parser.add_argument("--runs", type=int, default=2)
    arguments = parser.parse_args()
    sizes = [0, *sorted(arguments.sizes)]
    with tempfile.TemporaryDirectory(prefix="bench-site-") as scratch:
        times: dict[int, float] = {}
        for size in sizes:
            records_dir = make_records(Path(scratch) / f"repo-{size}", size)
            runs = [build_seconds(records_dir, Path(scratch) / f"out-{size}") for _ in range(arguments.runs)]
            times[size] = statistics.median(runs)
            print(f"built {size:4d} records: {times[size]:.2f} s (runs: {', '.join(f'{run:.2f}' for run in runs)})", flush=True)
    fixed = times[0]
    reference = sizes[1]
    print(f"\nfixed cost (0 records, MkDocs start-up and the static pages): {fixed:.2f} s")
    print(f"{'records':>8} {'build s':>8} {'s/record':>9} {'time ratio':>11} {'size ratio':>11} {'exponent':>9}")
    for size in sizes[1:]:
        per_record = (times[size] - fixed) / size
        ratio = (times[size] - fixed) / (times[reference] - fixed)
        exponent = math.log(ratio) / math.log(size / reference) if size != reference else float("nan")
        print(f"{size:8d} {times[size]:8.2f} {per_record:9.4f} {ratio:11.2f} {size / reference:11.2f} {exponent:9.2f}")


if __name__ == "__main__":
    main()
