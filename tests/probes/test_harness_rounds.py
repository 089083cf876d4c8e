"""A second round: time the probes leave unused goes to the cases another probe's share could not time."""

from __future__ import annotations

from pathlib import Path

import pytest

from probes.environment.detect import detect_environment
from probes.harness.session import ProbeRound, starved
from probes.models import CaseKey, ProbeCase, ProbeRun
from probes.registry import EXTRA_PROBE_DIRS_ENV
from probes.runner import heaviest_first, run_probes

QUICK_PROBE = """
import torch
from probes.registry import Bench, CaseSpec, Probe, implementation


@implementation("torch.add", baseline=True)
def add(case, device):
    values = torch.ones(16)
    return Bench(run=lambda: values.add(1.0))


PROBE = Probe(name="quick", description="One tiny add: done long before its share ends.",
              cases=lambda device, share_s: [CaseSpec(dtype="fp32", shape={"n": 16})])
"""


def test_time_a_probe_leaves_unused_goes_to_the_cases_another_could_not_time(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    (tmp_path / "quick").mkdir()
    (tmp_path / "quick" / "probe.py").write_text(QUICK_PROBE)
    monkeypatch.setenv(EXTRA_PROBE_DIRS_ENV, str(tmp_path))
    # selftest first with a sliver of the budget: its cases starve (or it cannot even start); quick then
    # finishes in well under its share, and the second round gives selftest what is left.
    evidence = run_probes(
        ["selftest", "quick"],
        budget_s=30,
        device="cpu",
        probe_weights={"selftest": 0.001},
        environment=detect_environment(),
    )
    selftest = evidence.probe_runs[0]
    assert selftest.probe == "selftest" and selftest.status == "ok", selftest
    assert getattr(selftest, "second_round_s", 0) > 10  # most of the budget came back to it
    cases = [case for case in evidence.cases if case.key.probe == "selftest"]
    assert cases and not any(starved(case) for case in cases)
    assert all(case.status == "ok" for case in cases), [(case.key.case_id, case.status, case.reason) for case in cases]
    assert [run.probe for run in evidence.probe_runs] == ["selftest", "quick"]


def _case(status: str, reason: str | None = None) -> ProbeCase:
    key = CaseKey(probe="p", implementation=f"i-{status}-{reason}", dtype="fp32", shape={"n": 1}, device="cpu")
    return ProbeCase(key=key, status=status, reason=reason)


def test_only_cases_starved_of_time_are_measured_again():
    cases = [
        _case("ok"),
        _case("failed", "raised"),
        _case("skipped", "unsupported: no fp8"),
        _case("not-timed", "its time share was spent before a timed sample fit"),
        _case("skipped", "the probe's time share was spent before this case"),
    ]
    run = ProbeRun(probe="p", status="ok", share_s=1.0, sized_for_s=0.9, wall_s=1.0)
    again = ProbeRound.after(run, cases)
    assert again is not None and again.sized_for_s == 0.9 and len(again.plan) == 5
    assert sorted(again.kept) == sorted(case.key.case_id for case in cases[:3])
    assert ProbeRound.after(run, cases[:3]) is None  # nothing starved
    crashed = run.model_copy(update={"status": "failed", "reason": "gave up after 3 restarts"})
    assert ProbeRound.after(crashed, cases) is None
    late = run.model_copy(
        update={"status": "failed", "reason": "its time share ran out before the probe started (start-up)"}
    )
    fresh = ProbeRound.after(late, [])
    assert fresh is not None and fresh.plan == () and fresh.sized_for_s is None


def test_the_second_round_serves_the_heaviest_probe_first():
    # assess weighs the probes by what the decision reads (the gemm probe 2.0 for an fp8 ask): where the time left
    # is short, the cases that weigh most get it first; equal weights keep the order the run was given.
    weights = {"attention": 1.0, "gemm": 2.0, "hotops": 1.0, "int8": 0.5}
    assert heaviest_first(["attention", "gemm", "hotops", "int8"], weights) == ["gemm", "attention", "hotops", "int8"]
    assert heaviest_first(["hotops", "attention"], weights) == ["hotops", "attention"]
