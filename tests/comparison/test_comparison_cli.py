"""`advisor compare` on two saved evidence files: the table, --json and one-line errors."""

from __future__ import annotations

import json
import math
from datetime import datetime, timezone

import numpy as np

from advisor.cli import app
from advisor.comparison.models import Comparison
from probes.models import CaseKey, Evidence, HarnessSettings, Measurement, ProbeCase, ProbeConfig


def saved_evidence(path, environment, medians: dict[str, float], seed: int):
    generator = np.random.default_rng(seed)
    cases = []
    for implementation, median_s in medians.items():
        samples = generator.lognormal(math.log(median_s), 0.04, 200).tolist()
        timing = Measurement.from_samples(samples, stop_reason="converged", warmup_calls=3)
        shape = {"m": 64, "n": 64, "k": 64}
        key = CaseKey(probe="gemm", implementation=implementation, dtype="fp32", shape=shape, device="cpu")
        cases.append(ProbeCase(key=key, status="ok", timing=timing))
    started = datetime(2026, 1, 2, tzinfo=timezone.utc)
    settings = HarnessSettings()
    config = ProbeConfig(budget_s=60, device_requested="auto", device="cpu", probes=["gemm"], settings=settings)
    Evidence(environment=environment, config=config, started_at=started, finished_at=started, cases=cases).save(path)
    return path


def two_files(tmp_path, environment_factory):
    env = environment_factory()
    a = saved_evidence(tmp_path / "a.json", env, {"steady": 1e-3, "regressed": 1e-3, "gone": 1e-3}, seed=1)
    b = saved_evidence(tmp_path / "b.json", env, {"steady": 1e-3, "regressed": 1.2e-3, "new": 1e-3}, seed=2)
    return a, b


def test_the_table_lists_verdicts_best_first_and_unmatched_cases(runner, tmp_path, environment_factory):
    a, b = two_files(tmp_path, environment_factory)
    result = runner.invoke(app, ["compare", str(a), str(b)])
    assert result.exit_code == 0, result.stderr
    output = result.stdout
    assert output.index("SAME") < output.index("SLOWER")
    assert "only in A (1):\n  gemm/gone/fp32/m=64,n=64,k=64/default/cpu" in output
    assert "only in B (1):\n  gemm/new/fp32/m=64,n=64,k=64/default/cpu" in output
    assert "control variables: none differ" in output
    assert "verdicts: SAME 1, SLOWER 1" in output
    assert "warning" not in output
    assert "B/A [90% CI]" in output and "+/-6%" in output and "21% more time, beyond the 6% band" in output
    assert output.endswith(
        "comparable: 2 of 4 cases timed in a run (50%)\n"
        "of those: SAME 50%, FASTER/SLOWER 50%, UNCERTAIN 0%; median B/A 1.103\n"
        "equivalence band: +/-6% for every case\n"
    )


def test_cases_no_run_timed_are_counted_not_listed_and_the_band_floor_is_an_option(
    runner, tmp_path, environment_factory
):
    a_path, b_path = two_files(tmp_path, environment_factory)
    skipped = CaseKey(probe="gemm", implementation="unsupported", dtype="fp32", shape={"m": 64}, device="cpu")
    for path in (a_path, b_path):
        evidence = Evidence.load(path)
        evidence.cases.append(ProbeCase(key=skipped, status="skipped", reason="not enabled on cpu"))
        evidence.save(path)
    output = runner.invoke(app, ["compare", str(a_path), str(b_path)]).stdout
    assert "unsupported" not in output and "not measured in either run: 1 cases" in output
    assert "comparable: 2 of 4 cases timed in a run (50%)" in output
    wide = runner.invoke(app, ["compare", str(a_path), str(b_path), "--band-floor", "0.25"])
    assert wide.exit_code == 0, wide.stderr
    assert (
        "verdicts: SAME 2, NOT-MEASURED 1" in wide.stdout and "equivalence band: +/-25% for every case" in wide.stdout
    )


def test_json_output_is_the_comparison_model(runner, tmp_path, environment_factory):
    a, b = two_files(tmp_path, environment_factory)
    result = runner.invoke(app, ["compare", str(a), str(b), "--json"])
    assert result.exit_code == 0, result.stderr
    comparison = Comparison.model_validate(json.loads(result.stdout))
    assert [case.verdict for case in comparison.cases] == ["SAME", "SLOWER"]
    assert comparison.attributable and comparison.controls == []
    assert [case.timing.band for case in comparison.cases] == [0.06, 0.06]
    summary = comparison.summary
    assert (summary.timed_cases, summary.comparable, summary.same_share, summary.changed_share) == (4, 2, 0.5, 0.5)
    assert summary.band_min == summary.band_max == 0.06 and comparison.rule.confidence == 0.90


def test_missing_and_malformed_files_are_one_line_errors(runner, tmp_path, environment_factory):
    a, _ = two_files(tmp_path, environment_factory)
    missing = tmp_path / "missing.json"
    result = runner.invoke(app, ["compare", str(a), str(missing)])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: {missing}: no such file"
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    result = runner.invoke(app, ["compare", str(broken), str(a)])
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {broken}: not valid JSON")
    unversioned = tmp_path / "unversioned.json"
    unversioned.write_text("{}")
    result = runner.invoke(app, ["compare", str(unversioned), str(a)])
    assert result.exit_code == 2 and "no integer schema_version" in result.stderr
    invalid = tmp_path / "invalid.json"
    invalid.write_text('{"schema_version": 1}')
    result = runner.invoke(app, ["compare", str(a), str(invalid)])
    assert result.exit_code == 2 and result.stderr.startswith(
        f"error: {invalid}: not an evidence file (environment: Field required)"
    )
    assert len(result.stderr.strip().splitlines()) == 1
