"""Start-up and detection time of the CLI, as ratios against references measured in the same run.

    .venv/bin/python bench/bench_startup.py [--runs N]

References: a bare `python -c pass` (interpreter start) and `python -c "import torch"` (the floor for
any command that must look at the torch build). Targets from issue 2: `advisor --help` < 0.3 s,
`advisor env` < 2 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

COMMANDS: dict[str, list[str]] = {
    "python -c pass (reference)": [sys.executable, "-c", "pass"],
    "import torch (reference)": [sys.executable, "-c", "import torch"],
    "advisor --help": [sys.executable, "-m", "advisor", "--help"],
    "advisor env": [sys.executable, "-m", "advisor", "env"],
    "advisor env --json": [sys.executable, "-m", "advisor", "env", "--json"],
}


def wall_seconds(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def command_medians(commands: dict[str, list[str]], runs: int) -> dict[str, float]:
    """Median wall seconds per command over `runs` runs, after one warm-up run of each (page cache, .pyc files)."""
    for command in commands.values():
        wall_seconds(command)
    return {name: statistics.median(wall_seconds(cmd) for _ in range(runs)) for name, cmd in commands.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    medians = command_medians(COMMANDS, parser.parse_args().runs)
    bare, torch_floor = medians["python -c pass (reference)"], medians["import torch (reference)"]
    print(f"{'command':<28} {'median s':>9} {'x python':>9} {'x import torch':>15}")
    for name, seconds in medians.items():
        print(f"{name:<28} {seconds:9.3f} {seconds / bare:9.1f} {seconds / torch_floor:15.2f}")


if __name__ == "__main__":
    main()
