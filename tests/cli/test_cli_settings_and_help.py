"""Project settings honoured by the commands from a subdirectory (flags still win), `advisor config`, and
help a person can read: 80 columns, choices listed, -h, the bare group printing help, one-line usage errors."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from git import Repo
from typer.testing import CliRunner

from advisor.cli import app
from advisor.profile import Profile
from advisor.recommendation.engine import recommend
from advisor.records import write_decision

PROFILE = Profile(model_type="cnn", hardware="x86-cpu", workload="inference", team_skill="framework")


@pytest.fixture
def project(empty_repo: Repo, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose settings put the records in docs/decisions, with one decision of 2025-01-10, and the
    current folder two levels down."""
    root = Path(empty_repo.working_tree_dir or "")
    (root / "pyproject.toml").write_text(
        '[project]\nname = "team"\n\n[tool.advisor]\nrecords_dir = "docs/decisions"\nbudget = 45\ndeciders = ["Ada"]\n'
    )
    write_decision(
        recommend(PROFILE, []),
        [],
        records_dir=root / "docs" / "decisions",
        title="Vision serving",
        date=dt.date(2025, 1, 10),
    )
    deep = root / "src" / "model"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    return root


def test_records_and_the_review_gate_find_the_project_records_from_a_subdirectory(project: Path):
    runner = CliRunner()
    listed = runner.invoke(app, ["records", "list", "--json"])
    assert listed.exit_code == 0, listed.output
    assert [row["title"] for row in json.loads(listed.stdout)["records"]] == ["Vision serving"]
    gate = runner.invoke(app, ["review", "--due", "--check", "--today", "2026-12-01"])
    assert gate.exit_code == 1 and "overdue: 0001 Vision serving" in gate.stdout
    elsewhere = runner.invoke(app, ["records", "list", "--json", "--records-dir", str(project / "none")])
    assert elsewhere.exit_code == 0 and json.loads(elsewhere.stdout)["records"] == []  # the flag wins


def test_config_shows_each_value_and_its_source(project: Path):
    result = CliRunner().invoke(app, ["config", "--json"])
    assert result.exit_code == 0, result.output
    settings = json.loads(result.stdout)["settings"]
    assert settings["records_dir"] == {
        "value": str(project.resolve() / "docs" / "decisions"),
        "source": "pyproject.toml [tool.advisor]",
    }
    assert settings["budget"] == {"value": 45.0, "source": "pyproject.toml [tool.advisor]"}
    assert settings["hardware"]["source"] == "default"


def test_assess_takes_deciders_and_records_dir_from_the_settings(project: Path):
    result = CliRunner().invoke(
        app, ["assess", "--yes", "--no-probes", "--hardware", "x86-cpu", "--no-commit", "--json"]
    )
    assert result.exit_code == 0, result.output
    written = json.loads(result.stdout)
    record = Path(written["record"])
    assert record.parent == project.resolve() / "docs" / "decisions"
    assert "Ada" in record.read_text()


def test_a_wrong_setting_is_a_one_line_error_naming_file_and_key(project: Path):
    (project / "advisor.toml").write_text("budget = 'soon'\n")
    result = CliRunner().invoke(app, ["records", "list"])
    assert result.exit_code == 2
    assert (
        result.stderr.strip()
        == f"error: {project.resolve() / 'advisor.toml'}: budget must be a positive number of seconds, got 'soon'"
    )


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "COLUMNS": "80"}
    advisor = Path(sys.executable).with_name("advisor")  # the console script, as a user types it
    return subprocess.run([str(advisor), *arguments], capture_output=True, text=True, env=environment, timeout=60)


@pytest.mark.parametrize("command", [["assess"], ["probe"], ["review"], ["site", "build"], ["kb", "list"], ["compare"]])
def test_help_fits_80_columns_and_names_every_option_whole(command: list[str]):
    result = _run(*command, "-h")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    assert "…" not in result.stdout and "<str>" not in result.stdout


def test_assess_help_lists_the_choices():
    text = _run("assess", "--help").stdout
    assert "--model-type <dense-transformer|moe|multimodal|diffusion|cnn>" in text
    assert "--quantization <none|int8|fp8|int4|fp4>" in text and "nvidia-gpu" in text


def test_a_bare_group_prints_its_help_and_succeeds():
    for arguments in ([], ["kb"], ["records"], ["site"]):
        result = _run(*arguments)
        assert result.returncode == 0 and result.stdout.startswith("Usage: advisor"), (arguments, result.stderr)


def test_a_usage_error_is_one_line():
    result = _run("probe", "--device", "tpu")
    assert result.returncode == 2 and result.stdout == ""
    assert (
        result.stderr
        == "error: Invalid value for '--device': 'tpu' is not one of 'auto', 'cpu', 'cuda', 'npu'. (see `advisor probe -h`)\n"
    )
