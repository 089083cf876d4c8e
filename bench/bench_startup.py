"""Start-up and detection time of the CLI, as ratios against references measured in the same run.

    .venv/bin/python bench/bench_startup.py [--runs N] [--help-only]

References: a bare `python -c pass` (interpreter start) and `python -c "import torch"` (the floor for
any command that must look at the torch build). Then `--help` of every command and group, each as a
ratio to `python -c pass` (a loaded machine slows both alike). Targets from issues 2 and 16:
`advisor --help` and every command's `--help` <= 0.25 s, `advisor env` < 2 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ADVISOR = [sys.executable, "-m", "advisor"]
REFERENCES: dict[str, list[str]] = {
    "python -c pass (reference)": [sys.executable, "-c", "pass"],
    "import torch (reference)": [sys.executable, "-c", "import torch"],
}
DETECTION: dict[str, list[str]] = {
    "advisor env": [*ADVISOR, "env"],
    "advisor env --json": [*ADVISOR, "env", "--json"],
}


def command_names() -> list[str]:
    """'', 'assess', ..., 'kb', 'kb list', ...: every command and group of the CLI, walked from the app."""
    import typer

    from advisor.cli import app

    names: list[str] = []

    def walk(command: object, path: str) -> None:
        names.append(path)
        for name, sub in getattr(command, "commands", {}).items():  # a group (typer vendors its own click classes)
            walk(sub, f"{path} {name}".strip())

    walk(typer.main.get_command(app), "")
    return names


def help_commands() -> dict[str, list[str]]:
    """`advisor <command> --help` for every command and group."""
    return {
        f"advisor {name} --help".replace("  ", " "): [*ADVISOR, *name.split(), "--help"] for name in command_names()
    }


def wall_seconds(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def command_medians(commands: dict[str, list[str]], runs: int) -> dict[str, float]:
    """Median wall seconds per command over `runs` rounds, after one warm-up run of each (page cache, .pyc files);
    each round runs every command once, so a change in the machine's load falls on all of them alike."""
    for command in commands.values():
        wall_seconds(command)
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            samples[name].append(wall_seconds(command))
    return {name: statistics.median(values) for name, values in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--help-only", action="store_true", help="Skip `import torch` and `advisor env` (seconds each)."
    )
    arguments = parser.parse_args()
    references = (
        REFERENCES
        if not arguments.help_only
        else {"python -c pass (reference)": REFERENCES["python -c pass (reference)"]}
    )
    commands = {**references, **help_commands(), **({} if arguments.help_only else DETECTION)}
    medians = command_medians(commands, arguments.runs)
    bare, torch_floor = medians["python -c pass (reference)"], medians.get("import torch (reference)")
    width = max(len(name) for name in medians) + 1
    print(f"{'command':<{width}} {'median s':>9} {'x python':>9} {'x import torch':>15}")
    for name, seconds in medians.items():
        versus_torch = f"{seconds / torch_floor:15.2f}" if torch_floor else f"{'-':>15}"
        print(f"{name:<{width}} {seconds:9.3f} {seconds / bare:9.1f} {versus_torch}")
    helps = [seconds for name, seconds in medians.items() if name.endswith("--help")]
    print(
        f"\n--help of {len(helps)} commands: median {statistics.median(helps):.3f} s "
        f"({statistics.median(helps) / bare:.1f} x python), slowest {max(helps):.3f} s ({max(helps) / bare:.1f} x python)"
    )


if __name__ == "__main__":
    main()
