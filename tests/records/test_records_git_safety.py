"""What a commit may never do to the user's repository: leave things staged when it fails, land on a
detached HEAD, trip over a stale lock silently, or leave advisor's own files in `git status`; and
concurrent reviews that each keep their entry."""

from __future__ import annotations

import datetime as dt
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from git import Repo

from advisor.profile import Profile
from advisor.records import find_record, write_decision
from advisor.records.models import RecordError
from advisor.recommendation.engine import recommend
from probes.models import Evidence

CPU_SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-suite.json"
PROFILE = Profile(model_type="cnn", hardware="x86-cpu", workload="inference", team_skill="framework")


def _write(repo: Repo, title: str = "Decision", date: dt.date = dt.date(2026, 1, 2)):
    evidence = Evidence.load(CPU_SUITE)
    records = Path(repo.working_tree_dir) / "records"
    return write_decision(recommend(PROFILE, [evidence]), [evidence], records_dir=records, title=title, date=date)


def _index(repo: Repo) -> tuple[str, str]:
    return repo.git.ls_files("--stage"), repo.git.status("--porcelain")


def test_a_refusing_pre_commit_hook_leaves_the_index_and_the_folder_as_they_were(git_repo: Repo):
    root = Path(git_repo.working_tree_dir)
    (root / "notes.txt").write_text("staged by the user\n")
    git_repo.git.add("notes.txt")
    hook = Path(git_repo.git_dir) / "hooks" / "pre-commit"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text("#!/bin/sh\necho 'hook says no' >&2\nexit 1\n")
    hook.chmod(hook.stat().st_mode | stat.S_IEXEC)
    before = _index(git_repo)
    with pytest.raises(RecordError) as raised:
        _write(git_repo)
    assert "git commit failed" in str(raised.value) and "\n" not in str(raised.value)
    assert _index(git_repo) == before  # the user's staged file still staged, nothing of the record
    assert not list((root / "records").glob("0001-*"))


def test_a_stale_index_lock_is_named_with_what_to_do(git_repo: Repo):
    lock = Path(git_repo.git_dir) / "index.lock"
    lock.write_text("")
    with pytest.raises(RecordError) as raised:
        _write(git_repo)
    assert str(lock) in str(raised.value) and "delete it and run again" in str(raised.value)
    assert not list((Path(git_repo.working_tree_dir) / "records").glob("0001-*"))


def test_a_detached_head_is_refused(git_repo: Repo):
    git_repo.git.checkout(git_repo.head.commit.hexsha)
    with pytest.raises(RecordError, match="detached HEAD"):
        _write(git_repo)


def test_advisor_leaves_nothing_of_its_own_in_git_status(git_repo: Repo, tmp_path: Path):
    _write(git_repo)
    assert git_repo.git.status("--porcelain") == ""  # the lock lives in .git/, the record is committed
    assert (Path(git_repo.git_dir) / "advisor.lock").exists()
    from advisor.site.build import build_site

    root = Path(git_repo.working_tree_dir)
    build_site(None, out=root / "site-build", records_dir=root / "records", today=dt.date(2026, 6, 1))
    assert git_repo.git.status("--porcelain") == ""  # the built site ignores itself


REVIEW = """
import sys
from advisor.cli import main
sys.argv = ["advisor", "review", "1", "--evidence", sys.argv[1], "--records-dir", sys.argv[2], "--today", sys.argv[3]]
main()
"""


def test_concurrent_reviews_each_keep_their_entry(git_repo: Repo):
    written = _write(git_repo, date=dt.date(2026, 1, 2))
    records = written.record.parent
    days = ["2027-01-05", "2027-01-06", "2027-01-07", "2027-01-08"]
    runs = [subprocess.Popen([sys.executable, "-c", REVIEW, str(CPU_SUITE), str(records), day],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
            for day in days]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert all(run.returncode == 0 for run in runs), outputs
    body = find_record(records, 1).body
    assert all(f"{day}: keep" in body for day in days), body.split("## Review History")[-1]
    assert find_record(records, 1).front.version == 1 + len(days)


def test_an_uncommitted_record_is_listed_as_such(git_repo: Repo):
    from typer.testing import CliRunner

    from advisor.cli import app

    committed = _write(git_repo, "Committed")
    evidence = Evidence.load(CPU_SUITE)
    pending = write_decision(recommend(PROFILE, [evidence]), [evidence], records_dir=committed.record.parent,
                             title="Pending", date=dt.date(2026, 1, 3), commit=False)
    git_repo.git.add(str(pending.record))  # as a commit killed half-way leaves it: staged, not committed
    result = CliRunner().invoke(app, ["records", "list", "--records-dir", str(committed.record.parent), "--json"])
    rows = {row["id"]: row for row in __import__("json").loads(result.stdout)["records"]}
    assert rows[committed.id]["committed"] is True and rows[pending.id]["committed"] is False
    text = CliRunner().invoke(app, ["records", "list", "--records-dir", str(committed.record.parent)]).stdout
    assert "Pending  [" in text and text.splitlines()[1].endswith("(not committed)")
    assert not text.splitlines()[0].endswith("(not committed)")


def test_checking_which_files_changed_does_not_rewrite_the_index(git_repo: Repo):
    # A plain `git status` refreshes stale stat data by rewriting .git/index; advisor's read of which record files
    # changed must leave the user's index byte for byte as it was (CI, 2026-12-07: a nearly-full-disk run found it
    # rewritten under load)
    from advisor.records.git import uncommitted_paths

    root = Path(git_repo.working_tree_dir)
    tracked = root / "kept.md"
    tracked.write_text("same content\n")
    git_repo.git.add("kept.md")
    git_repo.git.commit("-m", "kept")
    later = tracked.stat().st_mtime + 100  # same bytes, newer stat data: what a refresh would record
    os.utime(tracked, (later, later))
    index = Path(git_repo.git_dir) / "index"
    before = index.read_bytes()
    assert uncommitted_paths(git_repo, [tracked]) == set()
    assert index.read_bytes() == before
