"""The per-probe verdict: the median of a probe's cases sees a shift they share that no case's own band can; the
machine-speed reference kernel moving the same way, or a busy host, leaves it UNCERTAIN."""

from __future__ import annotations

import math
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from advisor.comparison import compare_evidence
from advisor.comparison.machine import machine_ratios
from advisor.comparison.models import VerdictRule
from advisor.comparison.probe_verdict import MIN_PROBE_CASES, probe_verdicts
from probes.models import CaseKey, Evidence, HarnessSettings, Measurement, ProbeCase, ProbeConfig, ProbeRun

RECORDS = Path(__file__).resolve().parents[2] / "records"
QUIET_A = RECORDS / "0001-cpu-serving-stack-for-a-dense-transformer.evidence.json"
QUIET_B = RECORDS / "0001-cpu-serving-stack-for-a-dense-transformer.review-2026-11-29.evidence.json"


def _run(environment, seed: int, *, code: float = 1.0, machine: float = 1.0, cases: int = 10) -> Evidence:
    """One run of `cases` gemm cases with quiet lognormal noise (sigma 3%, 20 samples, each case's own 1% move
    between runs); the code `code` times slower and the machine `machine` times slower, which the reference
    kernel timed at the probe's start shows (the code does not move it)."""
    generator = np.random.default_rng(seed)
    shapes = np.random.default_rng(0)  # the same cases, at the same medians, in every run
    made = []
    for index in range(cases):
        median_s = 10 ** shapes.uniform(-5, -3)
        own = math.exp(generator.normal(0, 0.01))
        samples = generator.lognormal(math.log(median_s * code * machine * own), 0.03, 20).tolist()
        key = CaseKey(probe="gemm", implementation=f"mm{index}", dtype="fp32", shape={"n": 64}, device="cpu")
        made.append(ProbeCase(key=key, status="ok", timing=Measurement.from_samples(samples, stop_reason="converged")))
    reference = (generator.lognormal(math.log(2e-3 * machine), 0.005, 5)).tolist()
    started = datetime(2026, 1, 2, tzinfo=timezone.utc)
    config = ProbeConfig(budget_s=60, device_requested="cpu", device="cpu", probes=["gemm"], settings=HarnessSettings())
    runs = [ProbeRun(probe="gemm", status="ok", share_s=30.0, wall_s=20.0, reference_s=reference)]
    return Evidence(
        environment=environment, config=config, started_at=started, finished_at=started, cases=made, probe_runs=runs
    )


def _gemm(a: Evidence, b: Evidence):
    return next(verdict for verdict in compare_evidence(a, b).probes if verdict.probe == "gemm")


def test_a_and_a_is_same_and_a_shared_five_or_ten_percent_slowdown_is_found(environment_factory):
    machine = environment_factory()
    same = _gemm(_run(machine, 1), _run(machine, 2))
    assert same.verdict == "SAME" and same.band == 0.025 and abs(same.machine_ratio - 1.0) < 0.01
    ten = _gemm(_run(machine, 1), _run(machine, 2, code=1.10))
    assert ten.verdict == "SLOWER" and abs(ten.ratio - 1.10) < 0.02
    cases = compare_evidence(_run(machine, 1), _run(machine, 2, code=1.10)).cases
    assert sum(case.verdict == "SLOWER" for case in cases) < len(cases)  # what not every case's own band shows
    five = _gemm(_run(machine, 1), _run(machine, 2, code=1.05))
    assert five.verdict == "SLOWER" and abs(five.ratio - 1.05) < 0.02  # inside every case's 6% band, outside 2.5%
    assert not any(
        case.verdict == "SLOWER" for case in compare_evidence(_run(machine, 1), _run(machine, 2, code=1.05)).cases
    )


def test_the_machine_moving_the_same_way_or_a_busy_host_leaves_it_uncertain(environment_factory):
    machine = environment_factory()
    drifted = _gemm(_run(machine, 1), _run(machine, 2, machine=1.10))  # only the machine slowed
    assert drifted.verdict == "UNCERTAIN" and abs(drifted.machine_ratio - 1.10) < 0.01 and drifted.ratio > 1.06
    despite = _gemm(_run(machine, 1), _run(machine, 2, code=1.12, machine=0.97))  # the machine did not slow
    assert despite.verdict == "SLOWER"
    a, b = _run(machine, 1), _run(machine, 2, code=1.12)
    pairs = list(zip(a.cases, b.cases))
    busy = probe_verdicts(pairs, machine_ratios(a, b), VerdictRule(), busy_host=True)
    assert [verdict.verdict for verdict in busy] == ["UNCERTAIN"]
    assert [
        v.verdict
        for v in probe_verdicts(pairs, machine_ratios(a, b), VerdictRule(busy_host_blocks_change=False), busy_host=True)
    ] == ["SLOWER"]


def test_too_few_cases_get_no_probe_verdict(environment_factory):
    machine = environment_factory()
    few = MIN_PROBE_CASES - 1
    assert compare_evidence(_run(machine, 1, cases=few), _run(machine, 2, cases=few, code=1.2)).probes == []


def _scaled(evidence: Evidence, factor: float) -> Evidence:
    cases = [
        case.model_copy(update={"timing": case.timing.scaled(factor)}) if case.timing else case
        for case in evidence.cases
    ]
    return evidence.model_copy(update={"cases": cases})


def _probes(a: Evidence, b: Evidence) -> dict[str, str]:
    """The per-probe verdicts alone (what compare_evidence adds to its cases' verdicts), read the same way."""
    cases_b = {case.key.case_id: case for case in b.cases}
    pairs = [(case, cases_b[case.key.case_id]) for case in a.cases if case.key.case_id in cases_b]
    verdicts = probe_verdicts(pairs, machine_ratios(a, b), VerdictRule(resamples=500))  # CIs far from the edges
    return {verdict.probe: verdict.verdict for verdict in verdicts}


def test_the_committed_quiet_pair():
    a, b = Evidence.load(QUIET_A), Evidence.load(QUIET_B)
    # dynamic: 4 comparable cases, below the minimum. attention's cases ran 2.4% faster in B (their median; three
    # outliers at 0.38x, 0.52x and 1.96x pull the geometric mean to 0.947x): at the band's edge, so not SAME, but no
    # change is called either.
    assert _probes(a, b) == {"gemm": "SAME", "attention": "UNCERTAIN"}
    assert _probes(a, _scaled(b, 1.10)) == {"gemm": "SLOWER", "attention": "SLOWER"}
    # B 5% slower: gemm is found; attention's 2.4% drift brings it back to 1.025x, at the band's edge again.
    assert _probes(a, _scaled(b, 1.05)) == {"gemm": "SLOWER", "attention": "UNCERTAIN"}
