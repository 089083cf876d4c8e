"""Real processes: two writers at once get different numbers; a writer killed mid-write leaves nothing behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from git import Repo

from advisor.records.store import PAUSE_ENV

CPU_SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-suite.json"
WRITER = """
import datetime, sys
from pathlib import Path
from advisor.profile import Profile
from advisor.recommendation.engine import recommend
from advisor.records import write_decision
from probes.models import Evidence
evidence = Evidence.load(sys.argv[2])
profile = Profile(model_type="cnn", hardware="x86-cpu", workload="inference", team_skill="framework")
written = write_decision(recommend(profile, [evidence]), [evidence], records_dir=Path(sys.argv[1]),
                         title=sys.argv[3], date=datetime.date(2026, 1, 2))
print(written.id)
"""


def _start(records_dir: Path, title: str, pause: str) -> subprocess.Popen[str]:
    env = {**os.environ, PAUSE_ENV: pause}
    return subprocess.Popen([sys.executable, "-c", WRITER, str(records_dir), str(CPU_SUITE), title],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_writers_at_once_get_different_numbers(git_repo: Repo):
    records_dir = Path(git_repo.working_tree_dir) / "records"
    writers = [_start(records_dir, title, "0.3") for title in ("first", "second")]
    outputs = [writer.communicate(timeout=900) for writer in writers]
    assert all(writer.returncode == 0 for writer in writers), outputs
    assert sorted(int(out) for out, _ in outputs) == [1, 2]
    assert len(list(records_dir.glob("000?-*.md"))) == 2 and len(list(records_dir.glob("*.evidence.json"))) == 2
    assert len(list(git_repo.iter_commits())) == 3  # initial + one per record


def test_killed_writer_leaves_no_record_evidence_or_commit(git_repo: Repo):
    records_dir = Path(git_repo.working_tree_dir) / "records"
    writer = _start(records_dir, "killed", "600")
    # no wall-clock budget (a busy host may take minutes to import and recommend): wait for the file or the exit
    while not list(records_dir.glob(".*.tmp")) and writer.poll() is None:
        time.sleep(0.05)
    assert list(records_dir.glob(".*.tmp")), f"the writer exited first: {writer.communicate()}"
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    assert not list(records_dir.glob("*.md")) and not list(records_dir.glob("*.json"))
    assert len(list(git_repo.iter_commits())) == 1
    from advisor.records import load_records

    assert load_records(records_dir) == ([], [])
    retry = _start(records_dir, "retry", "0")
    out, err = retry.communicate(timeout=900)
    assert retry.returncode == 0, err
    assert int(out) == 1 and not list(records_dir.glob(".*.tmp"))  # leftovers cleaned, number not burnt
