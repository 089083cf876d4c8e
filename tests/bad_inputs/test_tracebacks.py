"""Issue 27, category 4: tracebacks that must be one-line errors, exit 2 (usage) or 1 (the machine).

Zero-duration samples, a read-only records folder (a real read-only bind mount), a full disk (a real small
tmpfs, filled) and a file-size limit (RLIMIT_FSIZE in the child, SIGXFSZ ignored), far-future `--today`
values, a bad `site serve --addr`, and git missing from PATH. Each case runs the real CLI in a real git
repository and checks that the tree, git's HEAD and index are as they were: in a child process for the disk,
the file-size limit, the server and a PATH without git (GitPython checks for git once, when first imported),
in this process for the rest.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import harness
import pytest
from harness import (
    CPU_SUITE,
    Project,
    assert_one_line_error,
    child_environment,
    invoke_advisor,
    make_project,
    run_advisor,
    unchanged,
)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


def _commit_all(project: Project, message: str) -> None:
    project.repo.git.add("-A")
    project.repo.index.commit(message)


# --- zero-duration samples -------------------------------------------------------------------------------


def _evidence_with(edit) -> str:  # type: ignore[no-untyped-def]
    document = json.loads(CPU_SUITE.read_text(encoding="utf-8"))
    edit(document)
    return json.dumps(document)


def _zero_samples(document: dict) -> None:
    for case in document["cases"]:
        timing = case.get("timing")
        if timing and case["key"]["probe"] == "attention":
            count = len(timing["samples"]) if "samples" in timing else 64
            timing.pop("samples_gz", None)
            timing.pop("stats", None)
            timing["samples"] = [0] * count


def _attention_without_length(document: dict) -> None:
    case = next(case for case in document["cases"] if case["key"]["probe"] == "attention" and case.get("timing"))
    case["key"]["shape"]["seq"] = 0


ZERO_EVIDENCE = {
    "zero-samples.json": (_zero_samples, "samples must be above zero seconds"),
    "zero-length.json": (_attention_without_length, "shape.seq: Input should be greater than or equal to 1"),
}


def _evidence_commands(evidence: str) -> list[list[str]]:
    return [
        ["recommend", "--profile", "profile.yaml", "--evidence", evidence],
        ["compare", str(CPU_SUITE), evidence],
        ["compare", evidence, str(CPU_SUITE)],
        ["assess", "--profile", "profile.yaml", "--yes", "--evidence", evidence],
        ["review", "1", "--evidence", evidence, "--today", "2027-06-01"],
    ]


@pytest.mark.parametrize("name", sorted(ZERO_EVIDENCE))
def test_zero_duration_evidence_is_one_line_for_every_reader(project: Project, tmp_path: Path, name: str):
    edit, said = ZERO_EVIDENCE[name]
    bad = tmp_path / name
    bad.write_text(_evidence_with(edit), encoding="utf-8")
    for command in _evidence_commands(str(bad)):
        with unchanged(project.root) as watch:
            result = invoke_advisor(command, cwd=project.root, tmp=watch.tmp)
        assert_one_line_error(result, name, said, code=2)


def test_growth_fit_and_dtype_ratios_never_see_a_zero_time():
    """The readers after the evidence model: what used to divide by a zero median is refused before it."""
    from probes.models import Measurement

    with pytest.raises(ValueError, match="above zero"):
        Measurement.from_samples([0.0, 0.0, 0.0], stop_reason="single pass")


# --- a read-only records folder -----------------------------------------------------------------------------

READ_ONLY_REASONS = ("Read-only file system", "Permission denied", "Operation not permitted")


def _second_record(project: Project) -> None:
    """0002: a copy of 0001 with its own number, committed (so supersede has two records)."""
    text = next(project.records.glob("0001-*.md")).read_text(encoding="utf-8").replace("id: 1\n", "id: 2\n", 1)
    (project.records / "0002-second.md").write_text(text, encoding="utf-8")
    _commit_all(project, "a second record")


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=30)


@pytest.fixture
def read_only_records(project: Project) -> Iterator[Project]:
    """The records folder made read-only for real: a read-only bind mount as root, else chmod 555 (which a
    non-root user cannot write through), else `chattr +i`; skipped, with the reason, where none can be made."""
    _second_record(project)
    records = str(project.records)
    if os.geteuid() != 0:
        project.records.chmod(0o555)
        yield project
        project.records.chmod(0o755)
        return
    bind = _run(["mount", "--bind", records, records])
    if bind.returncode == 0:
        try:
            remount = _run(["mount", "-o", "remount,bind,ro", records])
            if remount.returncode != 0:
                pytest.skip(f"cannot remount {records} read-only: {remount.stderr.strip()}")
            yield project
        finally:
            _run(["umount", "-l", records])
        return
    immutable = _run(["chattr", "+i", records]) if shutil.which("chattr") else None
    if immutable is None or immutable.returncode != 0:
        why = immutable.stderr.strip() if immutable is not None else "no chattr"
        pytest.skip(f"root without mount ({bind.stderr.strip()}) nor chattr +i ({why}): no read-only folder here")
    try:
        yield project
    finally:
        _run(["chattr", "-i", records])


READ_ONLY_COMMANDS = {
    "assess": (["assess", "--yes", "--no-probes", "--hardware", "x86-cpu"], "nothing was written"),
    "assess-probing": (
        ["assess", "--yes", "--hardware", "x86-cpu", "--probe", "selftest", "--budget", "30"],
        "no record could be written there",
    ),  # refused before the probes run
    "accept": (["records", "accept", "1"], "it is unchanged"),
    "supersede": (["records", "supersede", "1", "2"], "it is unchanged"),
    "review": (["review", "1", "--evidence", str(CPU_SUITE), "--today", "2027-06-01"], "nothing was written"),
}


@pytest.mark.parametrize("name", sorted(READ_ONLY_COMMANDS))
def test_read_only_records_folder_is_one_line_exit_1(read_only_records: Project, tmp_path: Path, name: str):
    command, said = READ_ONLY_COMMANDS[name]
    with unchanged(read_only_records.root, tmp_path / "scratch") as watch:
        result = run_advisor(command, cwd=read_only_records.root, tmp=watch.tmp)
    line = assert_one_line_error(result, str(read_only_records.records), said, code=1)
    assert any(reason in line for reason in READ_ONLY_REASONS), line


# --- a full disk and a file-size limit ---------------------------------------------------------------------------


def _fill(folder: Path, leave_kib: int = 0) -> Path:
    """Fill the file system of `folder` with one file, then give back `leave_kib` KiB of it."""
    filler = folder / "filler"
    chunk = b"\0" * (1 << 20)
    with filler.open("wb") as stream:
        try:
            while True:
                stream.write(chunk)
                stream.flush()
        except OSError:
            pass
    try:
        os.truncate(filler, max(0, filler.stat().st_size - leave_kib * 1024))
    except OSError:
        pass
    return filler


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 8 MiB tmpfs (root only), unmounted afterwards; skipped, with the reason, where none can be mounted."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = _run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(disk)]) if shutil.which("mount") else None
    if mounted is None or mounted.returncode != 0:
        pytest.skip(
            f"cannot mount a tmpfs here ({mounted.stderr.strip() if mounted else 'no mount'}); "
            "test_file_size_limit_* cover the same writes"
        )
    try:
        yield disk
    finally:
        _run(["umount", "-l", str(disk)])


FULL_DISK_COMMANDS = {
    "assess": ["assess", "--yes", "--no-probes", "--hardware", "x86-cpu"],
    "accept": ["records", "accept", "1"],
    "review": ["review", "1", "--evidence", str(CPU_SUITE), "--today", "2027-06-01"],
}


@pytest.mark.parametrize("name", sorted(FULL_DISK_COMMANDS))
def test_full_disk_is_one_line_exit_1_and_loses_nothing(small_disk: Path, tmp_path: Path, name: str):
    project = make_project(small_disk)
    _fill(small_disk)
    with unchanged(project.root, tmp_path / "scratch") as watch:
        result = run_advisor(FULL_DISK_COMMANDS[name], cwd=project.root, tmp=watch.tmp)
    assert_one_line_error(result, "No space left on device", code=1)


@pytest.mark.parametrize("name", ["assess", "accept"])
def test_nearly_full_disk_commits_wholly_or_changes_nothing(small_disk: Path, tmp_path: Path, name: str):
    """With a few KiB left the record may fit and git not (objects, index, ref): each run either commits
    everything or leaves the tree, HEAD and index exactly as they were."""
    project = make_project(small_disk)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    outcomes = []
    for leave_kib in (4, 8, 12, 16, 20, 24, 32, 48, 64):
        (small_disk / "filler").unlink(missing_ok=True)
        _fill(small_disk, leave_kib)
        tree, git = harness.tree_state(project.root), harness.git_state(project.root)
        result = run_advisor(FULL_DISK_COMMANDS[name], cwd=project.root, tmp=scratch)
        if result.returncode == 0:
            assert "committed" in result.stdout, result.stdout
            assert not project.repo.is_dirty(untracked_files=True)
            assert harness.git_state(project.root)[0] != git[0]
            outcomes.append("committed")
            if name == "accept":
                break  # accepted once; a second accept is refused for a reason that is not the disk
        else:
            assert_one_line_error(result, code=1)
            assert harness.tree_state(project.root) == tree and harness.git_state(project.root) == git
            outcomes.append("refused")
    assert "refused" in outcomes and "committed" in outcomes, outcomes  # both sides of the edge were tried


def _run_with_file_size_limit(command: list[str], cwd: Path, tmp: Path, limit: int) -> subprocess.CompletedProcess[str]:
    """The CLI in a child whose files may not grow past `limit` bytes (ulimit -f); SIGXFSZ ignored, so a write
    past it fails with EFBIG instead of killing the process."""

    def limit_file_size() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "advisor", *command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        env=child_environment(tmp),
        preexec_fn=limit_file_size,
    )


FILE_SIZE_CASES = {
    "assess-evidence": (["assess", "--profile", "profile.yaml", "--yes", "--evidence", str(CPU_SUITE)], 32 * 1024),
    "review-evidence": (["review", "1", "--evidence", str(CPU_SUITE), "--today", "2027-06-01"], 32 * 1024),
    "accept": (["records", "accept", "1"], 4 * 1024),  # the record is about 8 KB
}


@pytest.mark.parametrize("name", sorted(FILE_SIZE_CASES))
def test_file_size_limit_is_one_line_exit_1_and_loses_nothing(project: Project, name: str):
    command, limit = FILE_SIZE_CASES[name]
    with unchanged(project.root) as watch:
        result = _run_with_file_size_limit(command, project.root, watch.tmp, limit)
    assert_one_line_error(result, "File too large", str(project.records), code=1)


# --- far-future dates ------------------------------------------------------------------------------------------------

FAR_DATES = ["9999-12-31", "9001-01-01", "0001-01-01"]


@pytest.mark.parametrize("day", FAR_DATES)
@pytest.mark.parametrize(
    "command",
    [
        ["review", "--due"],
        ["review", "--due", "--check"],
        ["review", "1", "--evidence", str(CPU_SUITE)],
        ["site", "build", "--out", "{tmp}/site"],
    ],
    ids=["review-due", "review-due-check", "review-one", "site-build"],
)
def test_far_future_today_is_one_line(project: Project, tmp_path: Path, day: str, command: list[str]):
    filled = [part.format(tmp=tmp_path) for part in command]
    with unchanged(project.root) as watch:
        result = invoke_advisor([*filled, "--today", day], cwd=project.root, tmp=watch.tmp)
    assert_one_line_error(result, "--today", day, "out of range", code=2)
    assert not (tmp_path / "site").exists()


def test_kb_audit_far_as_of_is_one_line(project: Project):
    with unchanged(project.root) as watch:
        result = invoke_advisor(["kb", "audit", "--as-of", "9999-12-31"], cwd=project.root, tmp=watch.tmp)
    assert_one_line_error(result, "--as-of", "out of range", code=2)


def test_the_last_day_accepted_still_reviews(project: Project):
    from advisor.dates import LATEST_DAY

    result = invoke_advisor(
        ["review", "1", "--evidence", str(CPU_SUITE), "--today", LATEST_DAY.isoformat()],
        cwd=project.root,
        tmp=project.root.parent,
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert f"review_by: {LATEST_DAY.year + 1}-" in next(project.records.glob("0001-*.md")).read_text()


# --- site serve --addr ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "address, said",
    [
        ("127.0.0.1:70000", "from 1 to 65535"),
        ("127.0.0.1:0", "from 1 to 65535"),
        ("127.0.0.1:-1", "from 1 to 65535"),
        ("localhost:http", "from 1 to 65535"),
        ("127.0.0.1", "use HOST:PORT"),
        (":8000", "use HOST:PORT"),
        ("example.invalid:8000", "an IP address"),
        ("1.2.3:8000", "an IP address"),
    ],
)
def test_bad_serve_address_is_one_line(project: Project, address: str, said: str):
    with unchanged(project.root) as watch:
        result = run_advisor(["site", "serve", "--addr", address], cwd=project.root, tmp=watch.tmp, timeout=60)
    assert_one_line_error(result, "--addr", said, code=2)


# --- git missing from PATH -------------------------------------------------------------------------------------------


def _without_git(tmp: Path, bin_folder: Path) -> dict[str, str]:
    bin_folder.mkdir(exist_ok=True)
    environment = child_environment(tmp, PATH=str(bin_folder))
    environment.pop("GIT_PYTHON_GIT_EXECUTABLE", None)
    return environment


NEEDS_GIT = {
    "assess": ["assess", "--yes", "--no-probes", "--hardware", "x86-cpu"],
    "assess-no-commit": ["assess", "--yes", "--no-probes", "--hardware", "x86-cpu", "--no-commit"],
    "accept": ["records", "accept", "1"],
    "supersede": ["records", "supersede", "1", "2"],
    "history": ["records", "history", "1"],
    "list": ["records", "list"],
    "init": ["records", "init"],
    "review": ["review", "1", "--evidence", str(CPU_SUITE), "--today", "2027-06-01"],
    "site-build": ["site", "build", "--out", "{tmp}/site"],
}


@pytest.mark.parametrize("name", sorted(NEEDS_GIT))
def test_git_missing_from_path_is_one_line_exit_1(project: Project, tmp_path: Path, name: str):
    _second_record(project)
    command = [part.format(tmp=tmp_path) for part in NEEDS_GIT[name]]
    with unchanged(project.root) as watch:
        result = run_advisor(
            command, cwd=project.root, tmp=watch.tmp, env=_without_git(watch.tmp, tmp_path / "bin-without-git")
        )
    assert_one_line_error(result, "git is not found", "PATH", code=1)


@pytest.mark.parametrize(
    "command",
    [
        ["records", "show", "1"],
        ["review", "--due", "--check", "--today", "2026-06-01"],
        ["recommend", "--profile", "profile.yaml"],
    ],
    ids=["show", "due-check", "recommend"],
)
def test_commands_that_need_no_git_run_without_it(project: Project, tmp_path: Path, command: list[str]):
    with unchanged(project.root) as watch:
        result = run_advisor(
            command, cwd=project.root, tmp=watch.tmp, env=_without_git(watch.tmp, tmp_path / "bin-without-git")
        )
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
