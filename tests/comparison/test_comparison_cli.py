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


def test_json_output_is_the_comparison_model(runner, tmp_path, environment_factory):
    a, b = two_files(tmp_path, environment_factory)
    result = runner.invoke(app, ["compare", str(a), str(b), "--json"])
    assert result.exit_code == 0, result.stderr
    comparison = Comparison.model_validate(json.loads(result.stdout))
    assert [case.verdict for case in comparison.cases] == ["SAME", "SLOWER"]
    assert comparison.attributable and comparison.controls == []


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
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {invalid}: not an evidence file (environment: Field required)")
    assert len(result.stderr.strip().splitlines()) == 1
