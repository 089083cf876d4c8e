"""The Reading record and the small arithmetic the readers share."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from probes.models import ProbeCase


@dataclass(frozen=True)
class Reading:
    """One figure with its text and the cases it came from."""

    name: str
    value: float
    figure: str
    case_ids: tuple[str, ...]
    noisy_cases: int = 0
    low: float | None = None  # the smallest and largest per-shape value behind an aggregate figure
    high: float | None = None


def plural(count: int, word: str) -> str:
    """'1 shape', '2 shapes'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def median_s(case: ProbeCase) -> float | None:
    """The median time of an ok, timed case; None otherwise."""
    if case.status != "ok" or case.timing is None or case.timing.stats.median <= 0:
        return None
    return case.timing.stats.median


def make_reading(name: str, value: float, figure: str, cases: Iterable[ProbeCase]) -> Reading:
    """A reading citing `cases` (sorted, unique) and counting the noisy ones among them."""
    listed = sorted({case.key.case_id: case for case in cases}.items())
    noisy = sum(1 for _, case in listed if case.timing is not None and case.timing.stats.noisy)
    return Reading(name, value, figure, tuple(case_id for case_id, _ in listed), noisy)
