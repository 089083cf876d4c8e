"""Each timed case is visited twice, the probe's other cases between: samples from two stretches of the run.

A real probe child measures a toy probe; one of its cases crashes the child on its second build, which
must cost nothing already measured.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from probes.environment.detect import detect_environment
from probes.harness.measure import join_visits
from probes.models import CaseKey, HarnessSettings, Measurement, ProbeCase
from probes.registry import EXTRA_PROBE_DIRS_ENV, CaseSpec
from probes.runner import run_probes

TWICE_PROBE = """
import os, signal
from pathlib import Path
import torch
from probes.registry import Bench, CaseSpec, Probe, implementation

BUILDS = Path(os.environ["TWICE_BUILDS"])


def _built(name):
    marker = BUILDS / name
    again = marker.exists()
    marker.write_text("built")
    return again


@implementation("steady", baseline=True)
def steady(case, device):
    values = torch.ones(case.shape["n"])
    _built(f"steady-{case.shape['n']}")
    return Bench(run=lambda: values.add(1.0))


@implementation("crash.on.revisit")
def crash_on_revisit(case, device):
    values = torch.ones(case.shape["n"])
    if _built(f"crash-{case.shape['n']}"):
        os.kill(os.getpid(), signal.SIGSEGV)
    return Bench(run=lambda: values.add(1.0))


PROBE = Probe(name="twice", description="Two tiny adds, one of which crashes when built a second time.",
              cases=lambda device, share_s: [CaseSpec(dtype="fp32", shape={"n": 256})])
"""

SETTINGS = HarnessSettings(warmup_s=0.02, max_samples=200)


def _evidence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: HarnessSettings):
    (tmp_path / "probes" / "twice").mkdir(parents=True)
    (tmp_path / "probes" / "twice" / "probe.py").write_text(TWICE_PROBE)
    (tmp_path / "builds").mkdir()
    monkeypatch.setenv(EXTRA_PROBE_DIRS_ENV, str(tmp_path / "probes"))
    monkeypatch.setenv("TWICE_BUILDS", str(tmp_path / "builds"))
    return run_probes(["twice"], budget_s=20, device="cpu", settings=settings, environment=detect_environment())


def test_a_timed_case_joins_the_samples_of_two_visits_and_a_crash_on_the_second_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    evidence = _evidence(tmp_path, monkeypatch, SETTINGS)
    cases = {case.key.implementation: case for case in evidence.cases}
    steady = cases["steady"]
    assert steady.status == "ok" and steady.timing is not None
    visits = steady.timing.visits
    assert visits is not None and len(visits) == 2 and sum(visits) == len(steady.timing.samples)
    assert steady.timing.stats.n == len(steady.timing.samples)  # statistics over both visits' samples
    assert [len(part) for part in steady.timing.visit_samples()] == visits
    # The crashing case kept its first visit's timing; the crash is an incident, not a failed case.
    crashed = cases["crash.on.revisit"]
    assert crashed.status == "ok" and crashed.timing is not None and crashed.timing.visits is None
    run = evidence.probe_runs[0]
    assert run.status == "ok" and any("SIGSEGV" in incident for incident in run.incidents), run.incidents
    # Each child timed the machine-speed reference as it started: the first visit's and the second's.
    assert len(run.reference_s) == 2 and all(0 < seconds < 1 for seconds in run.reference_s)


def test_one_visit_when_the_settings_ask_for_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    evidence = _evidence(tmp_path, monkeypatch, SETTINGS.model_copy(update={"visits": 1}))
    assert all(case.timing is not None and case.timing.visits is None for case in evidence.cases)
    assert evidence.probe_runs[0].incidents == []  # no second build, so no crash


def _timed(samples: list[float], visits: list[int] | None = None) -> ProbeCase:
    key = CaseKey(probe="p", implementation="i", dtype="fp32", shape={"n": 1}, device="cpu")
    timing = Measurement.from_samples(samples, stop_reason="converged", calls_per_sample=4, visits=visits)
    return ProbeCase(key=key, status="ok", timing=timing, wall_s=1.0)


def test_join_visits_appends_samples_and_keeps_the_first_when_the_later_timed_nothing() -> None:
    case = CaseSpec(dtype="fp32", shape={"n": 1}, flops=2e6)
    joined = join_visits(_timed([1e-3, 1e-3, 2e-3]), _timed([3e-3, 3e-3]), case, HarnessSettings())
    assert joined.timing is not None and joined.timing.samples == [1e-3, 1e-3, 2e-3, 3e-3, 3e-3]
    assert joined.timing.visits == [3, 2] and joined.timing.calls_per_sample == 4
    assert joined.timing.stats.median == 2e-3 and joined.metrics["tflops"].value == pytest.approx(2e6 / 2e-3 / 1e12)
    assert joined.wall_s == 2.0
    third = join_visits(joined, _timed([4e-3]), case, HarnessSettings())
    assert third.timing is not None and third.timing.visits == [3, 2, 1]
    untimed = _timed([1e-3]).model_copy(update={"status": "not-timed", "timing": None})
    kept = join_visits(joined, untimed, case, HarnessSettings())
    assert kept.timing == joined.timing and kept.wall_s == 3.0


def test_visits_must_add_up_to_the_samples() -> None:
    with pytest.raises(ValueError, match="do not add up"):
        _timed([1e-3, 2e-3], visits=[1, 2])
