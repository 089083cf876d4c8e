"""`advisor records list` fits the terminal it is given: real records in a temporary git repository, titles
longer than any terminal (one of them in wide characters), every status, one record not committed."""

from __future__ import annotations

import datetime as dt
import json
import unicodedata
from pathlib import Path

import pytest
from git import Repo
from typer.testing import CliRunner

from advisor.cli import app
from advisor.cli.record_lines import TITLE_MIN, RecordLine, record_lines
from advisor.profile import Profile
from advisor.recommendation.engine import recommend
from advisor.records import write_decision

PROFILE = Profile(model_type="moe", hardware="nvidia-gpu", workload="both", team_skill="framework")
TITLES = (
    "FP8 serving and training of the long-context mixture-of-experts model family on the H200 fleet of the platform team",
    "推理服务的算子栈选择：长上下文混合专家模型在昇腾与英伟达两种硬件上的部署方案与评审记录",
    "Short",
)


def cells(line: str) -> int:
    """The terminal cells a line takes: two for a wide (East Asian) character."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in line)


@pytest.fixture
def records_dir(empty_repo: Repo) -> Path:
    """Three records: 0001 superseded by 0002 (accepted), 0003 proposed and not committed."""
    folder = Path(empty_repo.working_tree_dir or "") / "records"
    recommendation = recommend(PROFILE, [])
    for number, title in enumerate(TITLES, start=1):
        write_decision(
            recommendation,
            [],
            records_dir=folder,
            title=title,
            date=dt.date(2025, number, 10),
            init_git=False,
            commit=number < 3,
        )
    for command in (["records", "accept", "2"], ["records", "supersede", "1", "2"]):
        result = CliRunner().invoke(app, [*command, "--records-dir", str(folder)])
        assert result.exit_code == 0, result.output
    return folder


@pytest.mark.parametrize("columns", [80, 120])
def test_records_list_fits_the_terminal_and_keeps_every_id_and_status(records_dir: Path, columns: int):
    result = CliRunner().invoke(
        app, ["records", "list", "--records-dir", str(records_dir)], env={"COLUMNS": str(columns)}
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [cells(line) for line in lines if cells(line) > columns] == [], lines
    starts = [line.split()[:2] for line in lines]
    assert starts == [["0001", "superseded"], ["0002", "accepted"], ["0003", "proposed"]]
    assert "review by 2026-01-10" in lines[0]
    for line, title in zip(lines[:2], TITLES[:2]):  # longer than any terminal: cut, with the marker at the end
        shown = line.split("review by ")[1][len("2026-01-10  ") :]
        assert shown.startswith(title[: TITLE_MIN // 2]) and "…" in shown and title not in line, line
    assert "  Short  [" in lines[2] and lines[2].endswith("(not committed)")


def test_a_wide_terminal_shows_every_column_whole(records_dir: Path):
    result = CliRunner().invoke(app, ["records", "list", "--records-dir", str(records_dir)], env={"COLUMNS": "400"})
    first = result.stdout.splitlines()[0]
    assert (
        first.startswith("0001  superseded  2025-01-10  review by 2026-01-10  " + TITLES[0] + "  [")
        and "…" not in first
    )


def test_records_list_json_keeps_whole_titles_at_any_width(records_dir: Path):
    result = CliRunner().invoke(
        app, ["records", "list", "--records-dir", str(records_dir), "--json"], env={"COLUMNS": "80"}
    )
    rows = json.loads(result.stdout)["records"]
    assert [row["title"] for row in rows] == list(TITLES)
    assert [row["committed"] for row in rows] == [True, True, False]


@pytest.mark.parametrize("width", [30, 50, 64, 80, 100, 160])
def test_record_lines_never_pass_the_width(width: int):
    rows = [
        RecordLine(
            number,
            "superseded",
            "2025-01-10",
            "2026-01-10",
            title,
            "cublas, flashinfer, torch-compile, vllm",
            committed=number != 3,
        )
        for number, title in enumerate(TITLES, start=1)
    ]
    lines = record_lines(rows, width)
    assert [cells(line) for line in lines if cells(line) > width] == []
    assert [line[:4] for line in lines] == ["0001", "0002", "0003"]
