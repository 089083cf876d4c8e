"""The machine-speed reference: the band is at least as wide as the machine moved, and a probe whose reference
kernel ran slower in B cannot call its cases SLOWER."""

from __future__ import annotations

from advisor.comparison import compare_evidence
from advisor.comparison.machine import machine_ratios
from advisor.comparison.models import VerdictRule
from probes.environment.models import TorchInfo
from probes.models import CaseKey, Evidence, ProbeCase, ProbeRun
from tests.comparison.test_comparison_aa import evidence
from tests.comparison.test_comparison_visits import visited

_KEY = CaseKey(probe="attention", implementation="sdpa.flash", dtype="fp32", shape={"seq": 128}, device="cpu")


def _run(environment, median_s: float, references: list[float], seed: int) -> Evidence:
    case = ProbeCase(key=_KEY, status="ok", timing=visited([median_s] * 3, seed=seed))
    run = ProbeRun(probe="attention", status="ok", share_s=30.0, wall_s=30.0, reference_s=references)
    return evidence(environment, [case]).model_copy(update={"probe_runs": [run]})


def test_the_ratio_is_per_probe_and_read_only_with_the_same_torch(environment_factory) -> None:
    environment = environment_factory()
    a = _run(environment, 1e-4, [70e-6, 72e-6, 71e-6], seed=1)
    b = _run(environment, 1e-4, [80e-6, 79e-6, 81e-6], seed=2)
    assert machine_ratios(a, b) == {"attention": 80e-6 / 71e-6}
    assert machine_ratios(a, a.model_copy(update={"probe_runs": []})) == {}  # B has no reference
    other_torch = environment.model_copy(update={"torch": TorchInfo(version="9.9.9", build="cpu")})
    assert machine_ratios(a, b.model_copy(update={"environment": other_torch})) == {}  # other code, not the machine


def test_a_slowdown_the_machine_also_shows_is_uncertain_and_one_it_does_not_is_slower(environment_factory) -> None:
    environment = environment_factory()
    a = _run(environment, 1.0e-4, [70e-6] * 3, seed=3)
    slow_machine = _run(environment, 1.3e-4, [84e-6] * 3, seed=4)  # the reference itself 20% slower
    comparison = compare_evidence(a, slow_machine)
    case = comparison.cases[0]
    assert case.verdict == "UNCERTAIN" and "reference kernel ran +20% in B" in case.reason, case.reason
    assert comparison.machine_ratios == {"attention": 1.2}
    assert case.timing is not None and case.timing.machine_ratio == 1.2
    same_machine = _run(environment, 1.3e-4, [70.5e-6] * 3, seed=4)
    assert compare_evidence(a, same_machine).cases[0].verdict == "SLOWER"
    faster_machine = _run(environment, 1.3e-4, [60e-6] * 3, seed=4)  # it moved the other way: no excuse
    assert compare_evidence(a, faster_machine).cases[0].verdict == "SLOWER"
    unguarded = VerdictRule(machine_shift_blocks_change=False)
    assert compare_evidence(a, slow_machine, unguarded).cases[0].verdict == "SLOWER"


def test_the_band_is_at_least_as_wide_as_the_machine_moved(environment_factory) -> None:
    environment = environment_factory()
    a = _run(environment, 1.0e-4, [70e-6] * 3, seed=5)
    # The case took 12% longer in B while the machine's own reference kernel took 15% longer.
    drifted = _run(environment, 1.12e-4, [80.5e-6] * 3, seed=6)
    case = compare_evidence(a, drifted).cases[0]
    assert case.verdict == "SAME", case.reason
    assert case.timing is not None and abs(case.timing.band - 0.15) < 1e-9
    # A machine 15% faster widens the band as much: it drifted that far, whichever way.
    assert compare_evidence(a, _run(environment, 1.12e-4, [60.87e-6] * 3, seed=6)).cases[0].timing.band > 0.149
    # The band stops at its cap however far the machine moved.
    far = compare_evidence(a, _run(environment, 1.12e-4, [140e-6] * 3, seed=6)).cases[0]
    assert far.timing is not None and far.timing.band == VerdictRule().band_cap
    # Without the reference (another torch in B) the same 12% is beyond the 6% floor: SLOWER.
    other_torch = environment.model_copy(update={"torch": TorchInfo(version="9.9.9", build="cpu")})
    unread = compare_evidence(a, drifted.model_copy(update={"environment": other_torch})).cases[0]
    assert unread.verdict == "SLOWER" and unread.timing is not None and unread.timing.band < 0.1, unread.reason
