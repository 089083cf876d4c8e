"""Every command that writes, run from a subdirectory of a team's repository, writes where the project's
defaults say: the records and the site at the project root, never in the folder the command was started in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from git import Repo
from typer.testing import CliRunner

from advisor.cli import app

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture
def subdirectory(empty_repo: Repo, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The current folder two levels down in a repository whose settings name no folder (defaults only)."""
    root = Path(empty_repo.working_tree_dir or "")
    (root / "pyproject.toml").write_text('[project]\nname = "team"\n\n[tool.advisor]\ndeciders = ["Ada"]\n')
    deep = root / "src" / "model"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    return deep


def _invoke(*arguments: str) -> str:
    result = CliRunner().invoke(app, list(arguments))
    assert result.exit_code == 0, result.output
    return result.stdout


def _written_below(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def test_each_writing_command_writes_at_the_project_root(subdirectory: Path):
    root = subdirectory.parents[1].resolve()
    first = json.loads(_invoke("assess", "--yes", "--no-probes", "--hardware", "x86-cpu", "--json"))
    assert Path(first["record"]).parent == root / "records"
    _invoke("assess", "--yes", "--no-probes", "--hardware", "x86-cpu", "--model-type", "cnn", "--no-commit")
    _invoke("records", "accept", "1")
    _invoke("records", "supersede", "1", "2", "--no-commit")
    review = json.loads(
        _invoke(
            "review",
            "2",
            "--evidence",
            str(FIXTURES / "cpu-suite.json"),
            "--no-commit",
            "--today",
            "2027-12-10",
            "--json",
        )
    )
    assert review, "the review printed no outcome"
    built = _invoke("site", "build")
    assert built.rstrip().endswith(f"into {root / 'site-build'}")
    assert (root / "site-build" / "index.html").is_file()
    assert _written_below(subdirectory) == []  # nothing landed where the commands were started
    records = sorted(path.name for path in (root / "records").glob("*.md"))
    assert [name[:4] for name in records] == ["0001", "0002"]


def test_the_site_follows_a_mkdocs_config_at_the_project_root(subdirectory: Path):
    root = subdirectory.parents[1].resolve()
    _invoke("assess", "--yes", "--no-probes", "--hardware", "x86-cpu", "--no-commit")
    (root / "mkdocs.yml").write_text(
        "site_name: Team decisions\ndocs_dir: docs\nsite_dir: public\nplugins:\n  - search\n"
    )
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# Team decisions\n")
    built = _invoke("site", "build")
    assert built.rstrip().endswith(f"into {root / 'public'}")
    assert _written_below(subdirectory) == []
