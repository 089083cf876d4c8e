"""Which of a case's visits a verdict reads: the fastest one, by its median.

A probe times each case on several visits, seconds apart in the run (HarnessSettings.visits). On a
shared or virtual machine a visit can fall in a spell unlike the rest of the run. On the 2-core VM
this was written on, small multi-threaded calls change speed every few seconds: a fixed 1x2x128x64
SDPA call, timed every 2 s for 200 s under load, read 62-68 us 28 times, 69-80 us 24 times and
80-128 us 48 times, and idle now and then 892 us or 8.0 ms; each visit's samples stay tight.
Pooling the visits would carry the slow spells into the median and, with samples that tight, into a
confident verdict.
Whatever disturbs a timing (another tenant, a descheduled vCPU, a page fault) adds time, so each
side is judged on its fastest visit, as Python's timeit reports its best repeat
(https://docs.python.org/3/library/timeit.html, "best of 5"; checked 2026-12-01): with k visits a
side reads a slow spell only when every visit fell in one.

Measured on eleven A/A pairs of `gemm attention --budget 60` runs (bench/bench_aa.py): against the
middle visit, the fastest raised SAME from 30-64% to 53-79% on the six pairs whose second run met a
slow stretch, moved the median B/A from 1.11-1.17 to 1.02-1.11, and kept FASTER/SLOWER at or below
2% on every pair with the machine reference; on the five quiet pairs it changed SAME by -4 to +13
points.

The visits' own disagreement (`spread`: the middle visit's median over the fastest's) is the run-to-run
drift measured inside one run: the band is at least that wide (band.py, up to its 20% cap), and a change
beyond the band that is still smaller than the spread is UNCERTAIN rather than FASTER/SLOWER (verdict.py).
The middle visit, not the slowest: one visit in a slow spell says how slow the machine can get, not how far
the fastest visit moves between runs. Measured on three quiet A/A pairs (two of 2026-12-04 with five
visits, bench/bench_aa.py): with the slowest visit, B made 10% slower was found in 75.6% and 25.6% of the
quiet cases, and A against A x 1.10, with no run-to-run noise at all, in only 39.6% of the second pair's
(bands of 10-16% from one slow visit); with the middle visit 80.0% and 62.8% (A against A x 1.10: 81.1%),
while A/A stayed 98.1% SAME in both pairs with no FASTER/SLOWER (the slowest gave 98.1% and 100%). Both sides are judged the
same way, so the choice cannot favour either. A visit needs the rule's `min_samples` to be chosen;
when none has them, all samples are read together. A regression that shows on only some visits of B
is indistinguishable here from a spell of the machine, and is not called on its own.
"""

from __future__ import annotations

import statistics
from typing import NamedTuple

from probes.models import Measurement, ProbeCase


class JudgedVisit(NamedTuple):
    """The samples a verdict reads, which visit they are (1-based; None: all samples) and of how many."""

    samples: list[float]
    visit: int | None
    visits: int
    spread: float  # the middle usable visit's median over the fastest's, less 1: 0.0 with one usable visit


def judged_visit(timing: Measurement, min_samples: int) -> JudgedVisit:
    """Among the visits with at least `min_samples` samples, the one with the lowest median (the earlier on a tie)."""
    parts = timing.visit_samples()
    usable = [(statistics.median(part), index, part) for index, part in enumerate(parts, 1) if len(part) >= min_samples]
    if len(parts) == 1 or not usable:
        return JudgedVisit(list(timing.samples), None, len(parts), 0.0)
    usable.sort(key=lambda entry: (entry[0], entry[1]))
    fastest, index, samples = usable[0]
    middle = usable[len(usable) // 2][0]
    return JudgedVisit(samples, index, len(parts), middle / fastest - 1 if fastest > 0 else 0.0)


def is_timed(case: ProbeCase) -> bool:
    """The case ran and has timing samples: the only cases a timing comparison reads."""
    return case.status == "ok" and case.timing is not None and bool(case.timing.samples)
