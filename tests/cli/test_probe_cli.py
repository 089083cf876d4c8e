"""`advisor probe`: flags, errors, the Evidence it writes and the summary it prints (selftest probe, CPU)."""

from __future__ import annotations

import json
from pathlib import Path

from advisor.cli import app
from probes.models import Evidence


def test_probe_list_names_the_selftest(runner):
    result = runner.invoke(app, ["probe", "--list"])
    assert result.exit_code == 0
    assert "selftest" in result.stdout.split()


def test_probe_writes_evidence_and_prints_a_summary(runner, tmp_path):
    out = tmp_path / "nested" / "evidence.json"
    # The selftest stops once its cases are measured (about 8 s here); the budget leaves a busy host room to start the
    # probe's process and still time torch.matmul, which a 6 s budget did not under two CPU-bound neighbours.
    result = runner.invoke(app, ["probe", "selftest", "--budget", "30", "--device", "cpu", "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    evidence = Evidence.load(out)
    assert evidence.config.probes == ["selftest"] and evidence.config.device == "cpu"
    assert any(case.status == "ok" and case.key.implementation == "torch.matmul" for case in evidence.cases)
    assert "selftest: ok" in result.stdout
    assert "torch.matmul" in result.stdout


def test_probe_json_goes_to_stdout_and_progress_to_stderr(runner):
    # What is measured within 4 s depends on the machine's load (a busy host may start the child too late for any case);
    # the stream split does not: the run is recorded on stdout, case by case or not at all, and progress on stderr.
    result = runner.invoke(app, ["probe", "selftest", "--budget", "4", "--json"])
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["schema_version"] == 1
    assert [run["probe"] for run in document["probe_runs"]] == ["selftest"]
    assert {case["key"]["probe"] for case in document["cases"]} <= {"selftest"}
    assert result.stderr.strip() and not result.stderr.lstrip().startswith("{")


def test_unknown_probe_is_a_one_line_error(runner, tmp_path):
    out = tmp_path / "evidence.json"
    result = runner.invoke(app, ["probe", "gemmm", "--out", str(out)])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1].startswith("error: unknown probe(s): gemmm; known probes:")
    assert not out.exists()


def test_bad_budget_and_device_are_one_line_errors(runner):
    for arguments, message in (
        (["--budget", "0"], "--budget must be a positive number of seconds"),
        (["--budget", "nan"], "--budget must be a positive number of seconds"),
        (["--device", "npu"], "device 'npu' is not available"),
    ):
        result = runner.invoke(app, ["probe", "selftest", *arguments])
        assert result.exit_code == 2, arguments
        assert message in result.stderr.strip().splitlines()[-1]
    result = runner.invoke(app, ["probe", "selftest", "--device", "tpu"])
    assert result.exit_code == 2 and "tpu" in result.stderr


def test_default_selection_runs_every_measuring_probe_but_not_the_selftest():
    from probes.registry import known_probes, probe_declarations
    from probes.runner import select_probes

    selected = select_probes(None)
    assert "selftest" not in selected and not probe_declarations()["selftest"].runs_by_default
    assert set(selected) == set(known_probes()) - {"selftest", "scaling"}
    assert select_probes(["selftest"]) == ["selftest"]


def test_evidence_schema_is_exported(runner):
    result = runner.invoke(app, ["schema", "evidence"])
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["title"] == "Evidence" and "cases" in schema["properties"]


def test_a_probe_whose_cases_all_skip_for_one_reason_prints_one_line():
    from rich.console import Console

    from advisor.cli.probe import print_summary
    from probes.models import Evidence

    evidence = Evidence.load(Path(__file__).resolve().parents[1] / "fixtures" / "cpu-suite.json")
    skipped = [
        case.model_copy(update={"status": "skipped", "reason": "no accelerator here", "timing": None})
        for case in evidence.cases
        if case.key.probe == "int8"
    ]
    runs = [run for run in evidence.probe_runs if run.probe == "int8"]
    console = Console(width=160, record=True)
    print_summary(evidence.model_copy(update={"cases": skipped, "probe_runs": runs}), console)
    text = console.export_text()
    assert text.startswith("int8: ") and f"{len(skipped)} cases" in text and "all skipped: no accelerator here" in text
    assert len(text.strip().splitlines()) == 1
