"""What every bad-input case checks, in one place: the real CLI, one `error:` line naming the file, field or
flag, no traceback, the user's tree and git state hashed before and after, no process left and no temporary
folder left.

    project = make_project(tmp_path)            # a real git repository with one committed record
    with unchanged(project.root) as watch:      # hashes the tree, git HEAD and index; checks on exit
        result = invoke_advisor(["records", "list"], cwd=project.root, tmp=watch.tmp)
    assert_one_line_error(result, "records_dir", code=2)

Two ways to run it, with the same result type:
- `invoke_advisor`: the console script's `main()` in this process, in a scope that restores what it sets (the
  working directory, the environment, argv, tempfile's folder, the standard streams). `records list` takes
  about 0.03 s so against 0.5 s in a child (the interpreter's start and imports); for every case whose
  regression cannot hang or exhaust the test process.
- `run_advisor`: `python -m advisor` in a child with a time limit, for the cases whose regression would hang
  (a FIFO), eat memory (/dev/zero), need a resource limit (`ulimit -f`), a signal, a terminal or a fresh
  interpreter.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import os
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psutil
from git import Repo
from typer.testing import CliRunner, Result

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CPU_SUITE = FIXTURES / "cpu-suite.json"
GOOD_PROFILE = "model_type: dense-transformer\nhardware: x86-cpu\nworkload: inference\nteam_skill: framework\n"
# Folders advisor makes in the temporary directory; none may outlive a run.
ADVISOR_TEMP_PREFIXES = ("advisor-probe-", "advisor-site-", "advisor-int8-", "advisor-scaling-", "advisor-")


@dataclass(frozen=True)
class Project:
    """A real git repository with one committed decision record (0001) and its evidence."""

    root: Path
    records: Path
    repo: Repo


def make_project(parent: Path, name: str = "project") -> Project:
    """A git repository at parent/name with one committed record made from the CPU suite fixture."""
    from advisor.profile import Profile
    from advisor.recommendation.engine import recommend
    from advisor.records.decision import write_decision
    from probes.models import Evidence

    repo = Repo.init(parent / name)
    with repo.config_writer() as config:
        config.set_value("user", "name", "Bad Inputs")
        config.set_value("user", "email", "bad@example.com")
    root = Path(repo.working_tree_dir or parent / name)
    suite = Evidence.load(CPU_SUITE)
    profile = Profile(model_type="dense-transformer", hardware="x86-cpu", workload="inference", team_skill="framework")
    write_decision(
        recommend(profile, [suite]),
        [suite],
        records_dir=root / "records",
        title="Kept",
        deciders=["Ann"],
        date=dt.date(2026, 1, 2),
    )
    (root / "profile.yaml").write_text(GOOD_PROFILE, encoding="utf-8")
    repo.git.add("-A")
    repo.index.commit("the user's project")
    repo.close()  # its cat-file helpers would otherwise count as processes a command left behind
    return Project(root=root, records=root / "records", repo=repo)


def tree_state(root: Path) -> dict[str, str]:
    """Every entry under root (the .git folder's objects excepted) -> its kind and content hash or link target."""
    state: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        # git's own scratch files (a lock, the last commit message it tried) are not the user's work
        if relative.parts[:2] == (".git", "objects") or relative.parts[-1] in (
            "index.lock",
            ".advisor.lock",
            "COMMIT_EDITMSG",
        ):
            continue
        mode = path.lstat().st_mode
        if stat.S_ISLNK(mode):
            state[str(relative)] = "link:" + os.readlink(path)
        elif stat.S_ISDIR(mode):
            state[str(relative)] = "dir"
        elif stat.S_ISREG(mode):
            state[str(relative)] = "file:" + hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            state[str(relative)] = f"special:{stat.S_IFMT(mode)}"
    return state


def git_state(root: Path) -> tuple[str, str, str]:
    """HEAD, the index's entries and the tracked files' status: what a failed command must leave as it was.
    Read by plain git commands (GitPython would leave its cat-file helpers running, counted as leftovers)."""

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=60).stdout

    # --no-optional-locks: status would otherwise refresh the index, which a full disk refuses
    return (
        git("rev-parse", "--verify", "-q", "HEAD").strip() or "(no commit)",
        git("ls-files", "--stage"),
        git("--no-optional-locks", "status", "--porcelain", "--untracked-files=no"),
    )


@dataclass
class Watch:
    """What `unchanged` saw before the command; `tmp` is the private temporary folder to give the command."""

    root: Path
    tmp: Path
    tree: dict[str, str] = field(default_factory=dict)
    git: tuple[str, str, str] | None = None
    children: set[int] = field(default_factory=set)


def _own_descendants() -> set[int]:
    return {child.pid for child in psutil.Process().children(recursive=True)}


@contextmanager
def unchanged(root: Path, tmp: Path | None = None, *, git: bool = True) -> Iterator[Watch]:
    """Assert on exit that the tree under root, git's HEAD and index, this process's children and the
    command's temporary folder are as they were before."""
    scratch = tmp if tmp is not None else root.parent / f"{root.name}-tmp"
    scratch.mkdir(exist_ok=True)
    watch = Watch(
        root=root, tmp=scratch, tree=tree_state(root), git=git_state(root) if git else None, children=_own_descendants()
    )
    yield watch
    assert tree_state(root) == watch.tree, _tree_difference(watch.tree, tree_state(root))
    if git:
        assert git_state(root) == watch.git
    assert_no_process_left(watch.children)
    left = [path.name for path in scratch.iterdir() if path.name.startswith(ADVISOR_TEMP_PREFIXES)]
    assert left == [], f"temporary folders left behind: {left}"


def _tree_difference(before: dict[str, str], after: dict[str, str]) -> str:
    changed = sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))
    return "changed under the tree: " + ", ".join(changed[:20])


def assert_no_process_left(before: set[int], timeout: float = 10.0) -> None:
    """Every process started since `before` (children of this test process) has ended."""
    new = [psutil.Process(pid) for pid in _own_descendants() - before if psutil.pid_exists(pid)]
    _, alive = psutil.wait_procs(new, timeout=timeout)
    alive = [process for process in alive if process.status() != psutil.STATUS_ZOMBIE]
    assert alive == [], f"processes left running: {[process.cmdline() for process in alive]}"


def child_environment(tmp: Path, **extra: str) -> dict[str, str]:
    """The environment for a CLI child: this one, with a private TMPDIR so its temporary folders can be checked."""
    environment = {**os.environ, "TMPDIR": str(tmp), "COLUMNS": "200", **extra}
    return environment


def run_advisor(
    args: Sequence[str],
    *,
    cwd: Path,
    tmp: Path,
    timeout: float = 120,
    input: bytes | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """`python -m advisor ARGS` in cwd; a hang past `timeout` fails the test (subprocess.TimeoutExpired)."""
    return subprocess.run(
        [sys.executable, "-m", "advisor", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        input=input.decode() if input is not None else None,
        stdin=subprocess.DEVNULL if input is None else None,
        env=env if env is not None else child_environment(tmp),
    )


def invoke_advisor(
    args: Sequence[str], *, cwd: Path, tmp: Path, input: bytes | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`advisor ARGS` run as the console script runs it (`advisor.cli.main`), in this process, from cwd, with
    `env` as the environment (default: this one with TMPDIR=tmp) and tempfile's folder at its TMPDIR. A bug's
    traceback lands on stderr as `main` prints it, where `assert_one_line_error` finds it."""
    from advisor.cli import main

    environment = env if env is not None else child_environment(tmp)
    changes: dict[str, str | None] = {name: None for name in os.environ if name not in environment}
    changes.update({name: value for name, value in environment.items() if os.environ.get(name) != value})
    with (
        contextlib.chdir(cwd),
        _temporary_folder(Path(environment.get("TMPDIR", tmp))),
        _argv(["advisor", *args]),
        CliRunner().isolation(input=input, env=changes) as (stdout, stderr, _),
    ):
        try:
            main()
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
        sys.stdout.flush()
        sys.stderr.flush()
        said, complained = stdout.getvalue().decode(errors="replace"), stderr.getvalue().decode(errors="replace")
    return subprocess.CompletedProcess(["advisor", *args], code, said, complained)


@contextmanager
def _temporary_folder(folder: Path) -> Iterator[None]:
    """tempfile's folder is read from TMPDIR once and cached: point it at `folder` for the block."""
    previous = tempfile.tempdir
    tempfile.tempdir = str(folder)
    try:
        yield
    finally:
        tempfile.tempdir = previous


@contextmanager
def _argv(argv: list[str]) -> Iterator[None]:
    previous = sys.argv
    sys.argv = argv
    try:
        yield
    finally:
        sys.argv = previous


def assert_one_line_error(result: subprocess.CompletedProcess[str] | Result, *said: str, code: int = 2) -> str:
    """Exit `code`, exactly one `error: ...` line on stderr that holds every `said`, and no traceback; `result` is
    a child's (run_advisor) or an in-process run's (typer's CliRunner)."""
    returncode = result.returncode if isinstance(result, subprocess.CompletedProcess) else result.exit_code
    assert returncode == code, (returncode, result.stdout[-2000:], result.stderr[-2000:])
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, result.stderr[-3000:]
    for words in said:
        assert words in errors[0], errors[0]
    assert len(errors[0]) < 600, "an echoed value must be capped"
    return errors[0]
