"""The records folder and git: numbering, commits of exactly the record files, accept/supersede, history, problems."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from advisor.records import RecordError, accept, find_record, load_records, supersede, write_decision
from advisor.records.history import record_history

DATE = dt.date(2026, 1, 2)


def _write(recommendation, suite, records_dir: Path, title: str = "CPU serving", **options):
    return write_decision(recommendation, [suite], records_dir=records_dir, title=title, date=DATE, **options)


def _committed_files(repo) -> set[str]:
    return set(repo.head.commit.stats.files)


def test_commit_holds_exactly_the_record_and_evidence_and_leaves_user_changes(recommendation, suite, git_repo):
    root = Path(git_repo.working_tree_dir)
    (root / "staged.txt").write_text("staged by the user\n")
    git_repo.git.add("staged.txt")
    (root / "notes.txt").write_text("edited, not staged\n")
    written = _write(recommendation, suite, root / "records")
    assert written.id == 1 and written.commit == git_repo.head.commit.hexsha
    assert _committed_files(git_repo) == {"records/0001-cpu-serving.md", "records/0001-cpu-serving.evidence.json"}
    assert git_repo.head.commit.message.strip() == "decision 0001: CPU serving (v1)"
    assert [d.a_path for d in git_repo.index.diff("HEAD")] == ["staged.txt"]  # still staged, not committed
    assert [d.a_path for d in git_repo.index.diff(None)] == ["notes.txt"]  # still modified
    assert (root / "notes.txt").read_text() == "edited, not staged\n"


def test_evidence_is_pinned_by_sha256(recommendation, suite, git_repo):
    import hashlib

    written = _write(recommendation, suite, Path(git_repo.working_tree_dir) / "records")
    record = find_record(written.record.parent, 1)
    assert record.front.evidence[0].file == written.evidence[0].name
    assert record.front.evidence[0].sha256 == hashlib.sha256(written.evidence[0].read_bytes()).hexdigest()


def test_numbers_increase_and_are_never_reused(recommendation, suite, git_repo):
    records_dir = Path(git_repo.working_tree_dir) / "records"
    first = _write(recommendation, suite, records_dir, "one")
    second = _write(recommendation, suite, records_dir, "one")
    assert (first.id, second.id) == (1, 2) and second.record.name == "0002-one.md"
    git_repo.git.rm("-q", "--", str(second.record), str(second.evidence[0]))
    git_repo.git.commit("-m", "drop 2")
    assert _write(recommendation, suite, records_dir, "three").id == 3  # 2 was used in history


def test_no_repository_writes_and_says_so(recommendation, suite, tmp_path):
    written = _write(recommendation, suite, tmp_path / "records")
    assert written.commit is None and written.record.exists()
    assert "not in a git repository" in written.notes[0]


def test_init_git_creates_a_repository(recommendation, suite, tmp_path, monkeypatch):
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "no-gitconfig"))  # no identity: the fallback one is used
    written = _write(recommendation, suite, tmp_path / "records", init_git=True)
    assert written.commit is not None and (tmp_path / "records" / ".git").is_dir()


def test_accept_supersede_and_history(recommendation, suite, git_repo):
    from typer.testing import CliRunner

    from advisor.cli import app

    records_dir = Path(git_repo.working_tree_dir) / "records"
    _write(recommendation, suite, records_dir, "old")
    _write(recommendation, suite, records_dir, "new")
    runner = CliRunner()
    assert runner.invoke(app, ["records", "accept", "1", "--records-dir", str(records_dir)]).exit_code == 0
    assert find_record(records_dir, 1).front.status == "accepted"
    result = runner.invoke(app, ["records", "supersede", "1", "2", "--records-dir", str(records_dir)])
    assert result.exit_code == 0, result.output
    old, new = find_record(records_dir, 1), find_record(records_dir, 2)
    assert (old.front.status, old.front.superseded_by, old.front.version) == ("superseded", [2], 3)
    assert (new.front.supersedes, new.front.version) == ([1], 2)
    assert _committed_files(git_repo) == {"records/0001-old.md", "records/0002-new.md"}
    versions = record_history(git_repo, old.path)
    assert [v.version for v in versions] == [3, 2, 1]
    result = runner.invoke(app, ["records", "history", "1", "--records-dir", str(records_dir)])
    assert result.exit_code == 0 and "v3" in result.output and "decision 0001: CPU serving" not in result.output
    assert "superseded by 0002" in result.output


def test_accept_refuses_a_record_that_is_not_proposed(recommendation, suite, tmp_path):
    _write(recommendation, suite, tmp_path / "records")
    accept(tmp_path / "records", 1)
    with pytest.raises(RecordError, match="only a proposed record"):
        accept(tmp_path / "records", 1)
    with pytest.raises(RecordError, match="cannot supersede itself"):
        supersede(tmp_path / "records", 1, 1)


def test_malformed_record_is_a_problem_and_the_others_still_list(recommendation, suite, tmp_path):
    from typer.testing import CliRunner

    from advisor.cli import app

    records_dir = tmp_path / "records"
    _write(recommendation, suite, records_dir, "good")
    (records_dir / "0002-broken.md").write_text("---\nid: 2\ntitle: broken\nstatus: maybe\n---\n")
    (records_dir / "0003-no-front.md").write_text("# just markdown\n")
    (records_dir / "README.md").write_text("not a record\n")
    records, problems = load_records(records_dir)
    assert [r.id for r in records] == [1]
    assert {p.path.name for p in problems} == {"0002-broken.md", "0003-no-front.md"}
    assert "status" in next(p.problem for p in problems if p.path.name == "0002-broken.md")
    result = CliRunner().invoke(app, ["records", "list", "--json", "--records-dir", str(records_dir)])
    assert result.exit_code == 0
    assert '"title": "good"' in result.stdout and "0002-broken.md" in result.stdout
    result = CliRunner().invoke(app, ["records", "show", "2", "--records-dir", str(records_dir)])
    assert result.exit_code == 2 and "0002-broken.md" in result.stderr and "Traceback" not in result.output


def test_a_failed_commit_leaves_no_files(recommendation, suite, git_repo):
    root = Path(git_repo.working_tree_dir)
    (root / ".gitignore").write_text("records/\n")  # git add refuses ignored paths
    with pytest.raises(RecordError, match="git commit failed"):
        _write(recommendation, suite, root / "records")
    assert not list((root / "records").glob("0001-*"))


def test_the_committer_is_the_decision_maker_when_the_settings_name_none(recommendation, suite, git_repo, tmp_path):
    root = Path(git_repo.working_tree_dir)
    _write(recommendation, suite, root / "records")
    assert find_record(root / "records", 1).front.decision_makers == ["Test"]  # the repository's user.name
    _write(recommendation, suite, root / "records", title="named", deciders=["Ann"])
    assert find_record(root / "records", 2).front.decision_makers == ["Ann"]
    _write(recommendation, suite, tmp_path / "loose", commit=False)  # no repository: nobody to name
    assert find_record(tmp_path / "loose", 1).front.decision_makers == []
    _write(recommendation, suite, root / "drafts", commit=False)  # --no-commit inside the repository: still its user
    assert find_record(root / "drafts", 1).front.decision_makers == ["Test"]
