"""Which of a case's visits a verdict reads: the typical one, whose median is the median of the visits'.

A probe times each case on several visits, seconds apart in the run (HarnessSettings.visits). On a
shared or virtual machine a visit can fall in a spell unlike the rest of the run: measured on a
2-core VM, one visit of a case 15-40% slower than the others of the same run (a slow spell), and
for the tiniest multi-threaded calls now and then 20% faster, with each visit's samples tight.
Pooling the visits would carry such a spell into the median and, with samples that tight, into a
confident verdict. Instead each side is judged on its middle visit: with three visits that reads
past one odd visit in either direction. With two, the faster one is read: whatever disturbs a
timing (another tenant, a descheduled thread, a page fault) mostly adds time, which is also why
Python's timeit reports its best repeat (https://docs.python.org/3/library/timeit.html, "best of
5"; checked 2026-12-01).

The visits' own disagreement (`spread`) is the run-to-run drift measured inside one run: the band
is at least that wide (band.py, up to its 20% cap), and a change beyond the band that is still
smaller than the spread is UNCERTAIN rather than FASTER/SLOWER (verdict.py). Both sides are judged the same way,
so the choice cannot favour either. A visit needs the rule's
`min_samples` to be chosen; when none has them, all samples are read together. A regression that
shows on only some visits of B is indistinguishable here from a spell of the machine, and is not
called on its own.
"""

from __future__ import annotations

import statistics
from typing import NamedTuple

from probes.models import Measurement


class JudgedVisit(NamedTuple):
    """The samples a verdict reads, which visit they are (1-based; None: all samples) and of how many."""

    samples: list[float]
    visit: int | None
    visits: int
    spread: float  # the slowest usable visit's median over the fastest's, less 1: 0.0 with one usable visit


def judged_visit(timing: Measurement, min_samples: int) -> JudgedVisit:
    """Among the visits with at least `min_samples` samples, the one whose median is the middle one (the
    lower middle for an even count)."""
    parts = timing.visit_samples()
    usable = [(statistics.median(part), index, part) for index, part in enumerate(parts, 1) if len(part) >= min_samples]
    if len(parts) == 1 or not usable:
        return JudgedVisit(list(timing.samples), None, len(parts), 0.0)
    usable.sort(key=lambda entry: (entry[0], entry[1]))
    _, index, samples = usable[(len(usable) - 1) // 2]
    fastest, slowest = usable[0][0], usable[-1][0]
    return JudgedVisit(samples, index, len(parts), slowest / fastest - 1 if fastest > 0 else 0.0)
