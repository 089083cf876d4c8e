"""A case timed on several visits is judged on its fastest visit: slow spells on a side are read past.

Synthetic samples shaped like the 2-core VM's: each visit tight (lognormal, sigma 2%), visits of a
run now and then 15-40% slower than the others.
"""

from __future__ import annotations

import math
import statistics

import numpy as np

from advisor.comparison import compare_evidence
from advisor.comparison.models import VerdictRule
from advisor.comparison.visits import judged_visit
from probes.models import CaseKey, Measurement, ProbeCase
from tests.comparison.test_comparison_aa import evidence

_KEY = CaseKey(probe="attention", implementation="sdpa.flash", dtype="fp32", shape={"seq": 512}, device="cpu")


def visited(medians: list[float], counts: list[int] | None = None, seed: int = 0) -> Measurement:
    """Samples of one visit per median (20 each unless `counts` says), each visit tight around its median."""
    generator = np.random.default_rng(seed)
    counts = counts or [20] * len(medians)
    parts = [generator.lognormal(math.log(median), 0.02, count).tolist() for median, count in zip(medians, counts)]
    samples = [value for part in parts for value in part]
    visits = counts if len(medians) > 1 else None
    return Measurement.from_samples(samples, stop_reason="converged", visits=visits)


def test_the_fastest_visit_is_judged_and_the_spread_reaches_the_middle_visit() -> None:
    three = visited([1.0e-3, 1.4e-3, 0.8e-3])
    judged = judged_visit(three, min_samples=8)
    assert (judged.visit, judged.visits) == (3, 3) and judged.samples == three.visit_samples()[2]
    first, _, fastest = (statistics.median(part) for part in three.visit_samples())
    assert math.isclose(judged.spread, first / fastest - 1) and 0.2 < judged.spread < 0.3  # 1.0 over 0.8, not 1.4
    # one visit in a slow spell (3x) does not widen the spread: the middle of five visits is still near the fastest
    spell = judged_visit(visited([1.0e-3, 1.02e-3, 3.0e-3, 1.01e-3, 1.03e-3]), min_samples=8)
    assert spell.spread < 0.05
    two = judged_visit(visited([1.4e-3, 1.0e-3]), min_samples=8)
    assert (two.visit, two.visits) == (2, 2)


def test_a_visit_with_too_few_samples_is_not_chosen_and_one_visit_reads_every_sample() -> None:
    timing = Measurement.from_samples([1.0e-3] * 10 + [0.5e-3] * 3, stop_reason="converged", visits=[10, 3])
    assert judged_visit(timing, min_samples=8).visit == 1
    short = Measurement.from_samples([1.0e-3] * 3 + [0.5e-3] * 3, stop_reason="converged", visits=[3, 3])
    assert judged_visit(short, min_samples=8) == (short.samples, None, 2, 0.0)
    single = visited([1.0e-3])
    assert judged_visit(single, min_samples=8) == (single.samples, None, 1, 0.0)


def _compare(a: Measurement, b: Measurement, environment) -> tuple[str, ProbeCase]:
    run_a = evidence(environment, [ProbeCase(key=_KEY, status="ok", timing=a)])
    run_b = evidence(environment, [ProbeCase(key=_KEY, status="ok", timing=b)])
    case = compare_evidence(run_a, run_b, VerdictRule()).cases[0]
    return case.verdict, case


def test_the_band_is_at_least_as_wide_as_a_sides_visits_stray(environment_factory) -> None:
    steady = visited([1.0e-3, 1.01e-3, 0.99e-3], seed=6)
    wandering = visited([1.05e-3, 1.20e-3, 1.17e-3], seed=7)  # the middle visit 11% above the fastest
    _, case = _compare(steady, wandering, environment_factory())
    assert case.timing is not None and 0.10 < case.timing.band < 0.14  # not the 6% floor
    assert case.verdict == "SAME"  # B's fastest visit is 5% off: inside the drift the run itself shows


def test_slow_spells_on_a_side_are_same_but_a_slowdown_on_every_visit_is_slower(environment_factory) -> None:
    environment = environment_factory()
    a = visited([1.0e-3, 1.01e-3, 0.99e-3, 1.0e-3, 1.02e-3], counts=[20] * 5, seed=1)
    # Three of five visits in slow spells (as on the VM, about half the time); the slow ones took more
    # samples, as a disturbed visit does before its median settles.
    spells = visited([1.3e-3, 1.0e-3, 1.35e-3, 1.01e-3, 1.25e-3], counts=[40, 20, 60, 20, 40], seed=2)
    verdict, case = _compare(a, spells, environment)
    assert verdict == "SAME", case.reason
    assert case.timing is not None and case.timing.visits_b == 5 and case.timing.visit_b in (2, 4)
    # Pooled, the spells' samples are the majority and carry the median with them.
    pooled = Measurement.from_samples(spells.samples, stop_reason="converged")
    assert _compare(a, pooled, environment)[0] != "SAME"
    slower = visited([1.15e-3, 1.16e-3, 1.14e-3], seed=3)
    assert _compare(a, slower, environment)[0] == "SLOWER"


def test_a_change_smaller_than_a_sides_own_visit_spread_is_uncertain(environment_factory) -> None:
    environment = environment_factory()
    a = visited([1.0e-3, 1.01e-3, 0.99e-3], seed=4)
    # B's fastest visit is 25% slower, beyond even the widest band (20%), but B's middle visit is 28% above its
    # fastest: that run drifted more than it changed.
    drifting = visited([1.25e-3, 1.6e-3, 1.62e-3], seed=5)
    verdict, case = _compare(a, drifting, environment)
    assert verdict == "UNCERTAIN" and "B's own visits differ by" in case.reason, case.reason
    assert case.timing is not None and case.timing.visit_spread_b > 0.25 and case.timing.band == 0.20
    unguarded = VerdictRule(unsteady_visits_block_change=False)
    run_a = evidence(environment, [ProbeCase(key=_KEY, status="ok", timing=a)])
    run_b = evidence(environment, [ProbeCase(key=_KEY, status="ok", timing=drifting)])
    assert compare_evidence(run_a, run_b, unguarded).cases[0].verdict == "SLOWER"
