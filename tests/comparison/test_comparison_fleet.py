"""Evidence from several machines: `advisor compare` with three files, `--target`, and assess with a fleet."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from advisor.cli import app
from advisor.comparison.fleet import compare_fleet, geometric_mean_ratio
from advisor.records import find_record
from probes.models import Evidence

CPU_SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-suite.json"


def other_machine(tmp_path: Path, name: str, hostname_hash: str, slowdown: float = 1.0) -> Path:
    """The fixture as if measured on another x86 machine, every sample `slowdown` times longer."""
    data = json.loads(CPU_SUITE.read_text())
    data["environment"]["hostname_hash"] = hostname_hash
    data["environment"]["cpu"]["model_name"] = name
    for case in data["cases"]:
        timing = case.get("timing")
        if timing:
            timing["samples"] = [sample * slowdown for sample in timing["samples"]]
            for field in ("median", "q1", "q3", "iqr", "min", "max", "mean", "ci_low", "ci_high"):
                if field in timing["stats"]:
                    timing["stats"][field] *= slowdown
    path = tmp_path / f"{hostname_hash}.json"
    path.write_text(json.dumps(data))
    return path


def test_each_machine_is_compared_with_the_first(tmp_path):
    slow = other_machine(tmp_path, "Slow Xeon", "aaaa000011112222", slowdown=2.0)
    same = other_machine(tmp_path, "Twin Xeon", "bbbb000011112222")
    files = [(str(path), Evidence.load(path)) for path in (CPU_SUITE, slow, same)]
    fleet = compare_fleet(files, target="x86-cpu")
    assert [member.machine.machine for member in fleet.members] == ["aaaa0000", "bbbb0000"]
    slow_member, same_member = fleet.members
    assert abs(slow_member.geomean_ratio - 2.0) < 1e-6 and abs(same_member.geomean_ratio - 1.0) < 1e-6
    assert all(abs(case.timing.ratio - 2.0) < 1e-9 for case in slow_member.comparison.cases if case.timing)
    assert [machine.on_target for machine in fleet.on_target()] == [True, True, True]
    assert any(difference.variable == "cpu" for difference in slow_member.comparison.controls)


def test_geometric_mean_ignores_untimed_cases(tmp_path):
    fleet = compare_fleet([(str(CPU_SUITE), Evidence.load(CPU_SUITE)), (str(CPU_SUITE), Evidence.load(CPU_SUITE))])
    assert geometric_mean_ratio(fleet.members[0].comparison) == 1.0 and fleet.reference.on_target is None


def test_compare_cli_with_three_files_and_a_target(tmp_path):
    slow = other_machine(tmp_path, "Slow Xeon", "aaaa000011112222", slowdown=2.0)
    same = other_machine(tmp_path, "Twin Xeon", "bbbb000011112222")
    result = CliRunner().invoke(
        app, ["compare", str(CPU_SUITE), str(slow), str(same), "--target", "nvidia-gpu", "--json"]
    )
    assert result.exit_code == 0, result.output
    fleet = json.loads(result.stdout)
    assert fleet["target"] == "nvidia-gpu" and len(fleet["members"]) == 2
    assert all(member["machine"]["on_target"] is False for member in fleet["members"])
    text = CliRunner().invoke(app, ["compare", str(CPU_SUITE), str(slow), str(same), "--target", "x86-cpu"])
    assert "matches the target (x86-cpu)" in text.output and "aaaa0000" in text.output


def test_compare_rejects_an_unknown_target(tmp_path):
    result = CliRunner().invoke(app, ["compare", str(CPU_SUITE), str(CPU_SUITE), "--target", "gpu"])
    assert result.exit_code == 2 and "--target 'gpu' is not a hardware family" in result.output


def test_assess_takes_a_fleet_and_the_record_names_the_matching_machine(tmp_path):
    twin = other_machine(tmp_path, "Twin Xeon", "bbbb000011112222")
    records = tmp_path / "records"
    common = ["assess", "--yes", "--no-commit", "--records-dir", str(records), "--model-type", "cnn", "--json"]
    result = CliRunner().invoke(app, [*common, "--hardware", "x86-cpu", "--evidence", str(CPU_SUITE), str(twin)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    stem = Path(summary["record"]).stem
    assert [Path(path).name for path in summary["evidence"]] == [f"{stem}.evidence.json", f"{stem}.evidence-2.json"]
    body = find_record(records, 1).body
    assert "| file | machine | measured on | device | cases | role |" in body
    assert f"Matches the target hardware (x86-cpu): {stem}.evidence.json (machine 5bce98f7" in body
    assert "evidence-2.json (machine bbbb0000, Twin Xeon)" in body
    away = CliRunner().invoke(app, [*common, "--hardware", "nvidia-gpu", "--evidence", str(CPU_SUITE), str(twin)])
    assert away.exit_code == 0, away.output
    assert "No machine matches the target hardware (nvidia-gpu)" in find_record(records, 2).body


def test_assess_refuses_evidence_with_no_probes(tmp_path):
    result = CliRunner().invoke(
        app,
        ["assess", "--yes", "--no-commit", "--records-dir", str(tmp_path), "--no-probes", "--evidence", str(CPU_SUITE)],
    )
    assert result.exit_code == 2 and "--evidence and --no-probes exclude each other" in result.output
