"""Cost of the knowledge base (47 candidates, 12 platforms, compatibility, method anchors) per command, as
ratios against references measured in the same run.

    .venv/bin/python bench/bench_knowledge.py [--runs N]

References: `python -c pass` (interpreter start) and importing the loader's own dependencies (pyyaml and
pydantic), the floor for any command that reads the knowledge base.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bench_startup import command_medians  # run as a script: bench/ is on sys.path

LOAD = "from advisor.knowledge.loader import load_knowledge_base; load_knowledge_base()"
COMMANDS: dict[str, list[str]] = {
    "python -c pass (reference)": [sys.executable, "-c", "pass"],
    "import yaml, pydantic (reference)": [sys.executable, "-c", "import yaml, pydantic"],
    "load the knowledge base": [sys.executable, "-c", LOAD],
    "advisor kb list --json": [sys.executable, "-m", "advisor", "kb", "list", "--json"],
    "advisor kb audit --json": [sys.executable, "-m", "advisor", "kb", "audit", "--json"],
    "advisor kb list --markdown": [sys.executable, "-m", "advisor", "kb", "list", "--markdown"],
}


def in_process_load_seconds(runs: int) -> tuple[float, float]:
    """Median seconds to read and check every knowledge file, uncached, and to parse them as YAML only."""
    import yaml

    from advisor.knowledge import loader

    files = [
        path
        for folder in ("knowledge", "platforms")
        for path in (loader.resources.files("advisor.data") / folder).iterdir()
        if path.name.endswith(".yaml")
    ]
    texts = [path.read_text(encoding="utf-8") for path in files]
    full, parse = [], []
    for _ in range(runs):
        loader._cached_knowledge_base.cache_clear()
        started = time.perf_counter()
        loader.load_knowledge_base()
        full.append(time.perf_counter() - started)
        started = time.perf_counter()
        for text in texts:
            yaml.load(text, Loader=loader._SAFE_LOADER)
        parse.append(time.perf_counter() - started)
    return statistics.median(full), statistics.median(parse)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    medians = command_medians(COMMANDS, runs)
    bare, floor = medians["python -c pass (reference)"], medians["import yaml, pydantic (reference)"]
    print(f"{'command':<34} {'median s':>9} {'x python':>9} {'x yaml+pydantic':>16}")
    for name, seconds in medians.items():
        print(f"{name:<34} {seconds:9.3f} {seconds / bare:9.1f} {seconds / floor:16.2f}")
    full, parse = in_process_load_seconds(runs)
    print(
        f"in process: read and check every file {full * 1000:.1f} ms = {full / parse:.1f}x parsing them as YAML only "
        f"({parse * 1000:.1f} ms)"
    )


if __name__ == "__main__":
    main()
