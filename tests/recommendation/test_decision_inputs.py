"""What the decision reads from the probes: the budget goes to it by weight, and what stayed unmeasured is named."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.profile import Needs, Profile
from advisor.recommendation.inputs import budget_advice, decision_inputs, probe_weights, unmeasured_inputs
from probes.environment.detect import detect_environment
from probes.models import CaseKey, Evidence, ProbeCase, ProbeRun
from probes.registry import EXTRA_PROBE_DIRS_ENV
from probes.runner import ProbeError, run_probes

CPU_SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-suite.json"
LLM = Profile(
    model_type="dense-transformer",
    hardware="x86-cpu",
    workload="inference",
    team_skill="framework",
    needs=Needs(long_context=True, quantization="int8"),
)


def test_long_context_puts_attention_first_with_the_largest_share():
    inputs = decision_inputs(LLM)
    assert inputs[0].probe == "attention" and "long context" in inputs[0].decides
    weights = probe_weights(inputs)
    assert weights["attention"] == max(weights.values()) and weights["attention"] > weights["fusion"]


def test_a_probe_without_any_timed_case_is_an_unmeasured_input():
    key = CaseKey(probe="attention", implementation="naive", dtype="fp32", shape={"seq": 128}, device="cpu")
    untimed = ProbeCase(key=key, status="not-timed", reason="its time share was spent before a timed sample fit")
    suite = Evidence.load(CPU_SUITE)
    evidence = suite.model_copy(update={"cases": [untimed]})
    missing = {item.probe: item for item in unmeasured_inputs(decision_inputs(LLM), [evidence])}
    assert "0 of 1 cases timed (1 not timed: its time share was spent" in missing["attention"].reason
    assert missing["attention"].line().startswith("attention: attention kernel at long context: ")
    assert {"gemm", "int8", "hotops"} <= set(missing)  # no case of theirs at all


def test_the_committed_cpu_suite_leaves_nothing_it_measured_unread():
    suite = Evidence.load(CPU_SUITE)
    measured = {case.key.probe for case in suite.cases if case.status == "ok"}
    missing = {item.probe for item in unmeasured_inputs(decision_inputs(LLM), [suite])}
    assert "gemm" in measured and "gemm" not in missing


SECOND_PROBE = """
from probes.registry import Probe
from probes.selftest.probe import add_torch, selftest_cases

PROBE = Probe(name="second", description="The selftest's add again.",
              cases=lambda device, share_s: [case for case in selftest_cases(device, share_s) if case.options["op"] == "add"])
"""


def test_the_budget_is_shared_by_weight(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    (tmp_path / "second").mkdir()
    (tmp_path / "second" / "probe.py").write_text(SECOND_PROBE)
    monkeypatch.setenv(EXTRA_PROBE_DIRS_ENV, str(tmp_path))
    evidence = run_probes(
        ["selftest", "second"],
        budget_s=8,
        device="cpu",
        probe_weights={"selftest": 3.0},
        environment=detect_environment(),
    )
    first = evidence.probe_runs[0]
    assert first.probe == "selftest" and 0.6 * 8 <= first.share_s <= 0.75 * 8  # 3/(3+1) of what was left at its start
    assert evidence.config.probe_weights == {"selftest": 3.0, "second": 1.0}
    with pytest.raises(ProbeError, match="probe weight of selftest must be a positive number"):
        run_probes(["selftest"], budget_s=8, device="cpu", probe_weights={"selftest": 0.0})


def _run_of(probes: list[str], runs: list[ProbeRun], cases: list[ProbeCase]) -> Evidence:
    suite = Evidence.load(CPU_SUITE)
    config = suite.config.model_copy(update={"probes": probes})
    return suite.model_copy(update={"config": config, "probe_runs": runs, "cases": cases})


def test_the_budget_line_names_the_inputs_time_left_unmeasured_and_a_budget_for_them():
    spent = ProbeCase(
        key=CaseKey(probe="fusion", implementation="compiled", dtype="fp32", shape={"n": 8}, device="cpu"),
        status="skipped",
        reason="the probe's time share was spent before this case",
    )
    runs = [
        ProbeRun(probe="fusion", status="ok", share_s=6.0, wall_s=3.0),
        ProbeRun(probe="hotops", status="failed", reason="killed at its deadline", share_s=9.0, wall_s=9.2),
    ]
    run = _run_of(["attention", "hotops", "fusion"], runs, [spent])  # attention planned, never started
    missing = unmeasured_inputs(decision_inputs(LLM), [run])
    assert "0 of 1 cases timed (1 skipped: the probe's time share was spent" in next(
        m.reason for m in missing if m.probe == "fusion"
    )
    advice = budget_advice(missing, [run], 60.0)
    assert advice is not None and advice.probes == ("attention", "hotops", "fusion")  # gemm was not asked for
    assert advice.suggested_s == 120
    assert advice.line() == (
        "no evidence for attention, hotops, fusion within 60 s: a budget of about 120 s "
        "(--budget 120) gives each probe at least twice its share; on a busy host, more"
    )
    assert budget_advice(missing, [_run_of([], [], [])], 60.0) is None  # nothing planned ran out of time
