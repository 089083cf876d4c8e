"""`compare_evidence` on the repository's committed evidence pairs: seconds per pair, against the same comparison
with the bootstrap's medians taken by value (np.median of the resampled samples), as it was before the ranks.

    .venv/bin/python bench/bench_compare.py [--rounds 3]

Both sides draw the same resamples and give the same medians bit for bit (tests/comparison/
test_comparison_statistics.py); the figure is the ratio of their times, measured alternately in one run.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from advisor.comparison import compare_evidence  # noqa: E402
from advisor.comparison import statistics as stats  # noqa: E402
from probes.models import Evidence  # noqa: E402


def _by_value(samples: np.ndarray, resamples: int, generator: np.random.Generator) -> np.ndarray:
    chunk = stats._chunk_rows(samples)
    medians = []
    for start in range(0, resamples, chunk):
        picks = generator.integers(0, samples.size, size=(min(chunk, resamples - start), samples.size))
        medians.append(np.median(samples[picks], axis=1))
    return np.concatenate(medians)


def _paired_by_value(
    first: np.ndarray, second: np.ndarray, resamples: int, generator: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    chunk = stats._chunk_rows(first)
    medians_a, medians_b = [], []
    for start in range(0, resamples, chunk):
        picks = generator.integers(0, first.size, size=(min(chunk, resamples - start), first.size))
        medians_a.append(np.median(first[picks], axis=1))
        medians_b.append(np.median(second[picks], axis=1))
    return np.concatenate(medians_a), np.concatenate(medians_b)


@contextmanager
def medians_by_value() -> Iterator[None]:
    """The reference: the bootstrap's medians taken from the resampled values."""
    saved = stats._resampled_medians, stats._resampled_paired_medians
    stats._resampled_medians, stats._resampled_paired_medians = _by_value, _paired_by_value  # type: ignore[assignment]
    try:
        yield
    finally:
        stats._resampled_medians, stats._resampled_paired_medians = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    names = subprocess.run(
        ["git", "ls-files", "records/*.evidence.json"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    files = [Evidence.load(ROOT / name) for name in sorted(names)]
    pairs = list(zip(files, files[1:]))
    ranks_s, values_s = [], []
    for _ in range(arguments.rounds):
        began = time.perf_counter()
        for a, b in pairs:
            compare_evidence(a, b)
        ranks_s.append((time.perf_counter() - began) / len(pairs))
        with medians_by_value():
            began = time.perf_counter()
            for a, b in pairs:
                compare_evidence(a, b)
            values_s.append((time.perf_counter() - began) / len(pairs))
    ranks, values = statistics.median(ranks_s), statistics.median(values_s)
    print(f"{len(pairs)} pairs, {arguments.rounds} rounds, median seconds per pair")
    print(f"  by rank (advisor): {ranks:.3f} s")
    print(f"  by value (reference): {values:.3f} s")
    print(f"  ratio: {ranks / values:.2f}x the reference")


if __name__ == "__main__":
    main()
