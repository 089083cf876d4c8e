"""Versioning records with git (GitPython): commit exactly the record files, read their history.

`commit_paths` stages and commits only the given paths (`git commit --only`), so the user's other
staged and unstaged changes stay as they were: neither committed nor lost.

GitPython is imported when a repository is first looked for, not with this module: it refuses to import
at all when no git executable is found, and that is then one MachineError line (exit code 1) from the
commands that need git, while those that do not (`records show`, `review --due --check`) still run.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from advisor.errors import MachineError
from advisor.interrupts import stop_deferred
from advisor.records.models import RecordError

if TYPE_CHECKING:
    from git import Repo

# Used only when git has no identity configured (a fresh machine), so a commit never fails for it.
FALLBACK_IDENTITY = {"name": "advisor", "email": "advisor@localhost"}


@dataclass(frozen=True)
class RecordVersion:
    """One commit that touched a record: when, its front-matter version, and the message."""

    sha: str
    date: datetime
    version: int | None
    message: str


def require_git() -> None:
    """Import GitPython; MachineError naming what is missing when it cannot be (no git executable found)."""
    try:
        import git  # noqa: F401 - imported for its check of the git executable
    except ImportError as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise MachineError(f"git is not found (GitPython: {first[:120]}): advisor versions records with git; install "
                           "git, put it on PATH or set GIT_PYTHON_GIT_EXECUTABLE") from None  # fmt: skip


@contextmanager
def open_repository(path: Path) -> Iterator[Repo | None]:
    """The git repository containing `path` (or its nearest existing parent), or None; MachineError without git.
    Closed when the block ends: GitPython's object-database readers are `git cat-file` processes that would
    otherwise outlive the command (one pair per site build in a long `advisor site serve`)."""
    repo = _find_repository(path)
    try:
        yield repo
    finally:
        if repo is not None:
            repo.close()


def _find_repository(path: Path) -> Repo | None:
    require_git()
    from git import InvalidGitRepositoryError, NoSuchPathError, Repo

    probe = path.resolve()
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        return Repo(probe, search_parent_directories=True)
    except (InvalidGitRepositoryError, NoSuchPathError):
        return None


def init_repository(path: Path) -> Repo:
    """Create a git repository at `path` (the records folder's own, when it is in none)."""
    require_git()
    from git import Repo

    path.mkdir(parents=True, exist_ok=True)
    return Repo.init(path)


def repository_path(repo: Repo, path: Path) -> str:
    """`path` relative to the repository's root, POSIX style; RecordError when it lies outside the repository."""
    root = Path(repo.working_tree_dir or ".").resolve()
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        raise RecordError(f"{path} is outside the git repository at {root}") from None


def _identity_env(repo: Repo) -> dict[str, str]:
    from git import GitCommandError

    try:  # ask git itself: it knows every place an identity can be configured
        repo.git.var("GIT_AUTHOR_IDENT")
        repo.git.var("GIT_COMMITTER_IDENT")
        return {}
    except GitCommandError:
        name, email = FALLBACK_IDENTITY["name"], FALLBACK_IDENTITY["email"]
        return {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email}


def check_can_commit(repo: Repo) -> None:
    """RecordError (one line, saying what to do) when a commit would land somewhere unexpected or cannot run."""
    index_lock = Path(repo.git_dir) / "index.lock"
    if index_lock.exists():
        raise RecordError(
            f"{index_lock} exists: an interrupted git command left it; if no git command is running, delete it and run again"
        )
    if repo.head.is_valid() and repo.head.is_detached:
        raise RecordError(
            f"the repository at {repo.working_tree_dir} is on a detached HEAD: check out a branch first "
            "(or pass --no-commit and commit the record yourself)"
        )


def commit_paths(repo: Repo, paths: Sequence[Path], message: str) -> str:
    """Commit exactly `paths` with `message` and return the new commit's sha; other changes stay put.

    On any failure (a pre-commit hook saying no) the index is put back exactly as it was, so nothing of the
    record is left staged in the user's repository. A stop signal (Ctrl-C, SIGTERM) waits for the commit to end
    and is raised after it (by the caller's own `stop_deferred` section when it has one)."""
    from git import GitCommandError

    check_can_commit(repo)
    relative = [repository_path(repo, path) for path in paths]
    index = Path(repo.git_dir) / "index"
    saved = index.read_bytes() if index.exists() else None
    with stop_deferred():  # git runs to its end (`_git_alone`); so must this: a stop signal waits for it
        try:
            _git_alone(repo, "add", "--", *relative)
            with repo.git.custom_environment(**_identity_env(repo)):
                _git_alone(repo, "commit", "-m", message, "--only", "--", *relative)
        except BaseException as error:
            _restore_index(index, saved)
            if isinstance(error, GitCommandError):
                detail = " ".join(str(error.stderr).split()) or " ".join(str(error).split())
                failed = MachineError if any(sign in detail for sign in MACHINE_SIGNS) else RecordError
                raise failed(f"git commit failed: {detail[:300]}") from None
            raise
        # Not GitPython's object reader: its long-lived `git cat-file` shares advisor's group, so the signal ended it.
        return _git_alone(repo, "rev-parse", "HEAD").strip()


def _git_alone(repo: Repo, *args: str) -> str:
    """`git ARGS` in a session of its own: a Ctrl-C or SIGTERM sent to advisor's process group must not kill git
    half-way through a commit (after moving HEAD, before updating the index); advisor holds the signal until the
    commit is over (`interrupts.stop_deferred`) and then decides."""
    output: str = repo.git.execute([repo.git.GIT_PYTHON_GIT_EXECUTABLE, *args], start_new_session=True)
    return output


# What git says when the disk, not the commit, is the problem (its messages are not translated in pipes).
# advisor always passes a message (-m), so git aborting on an empty one means it could not write COMMIT_EDITMSG.
MACHINE_SIGNS = ("No space left", "Out of diskspace", "Disk quota", "File too large", "Read-only file system",
                 "couldn't write", "unable to write", "write error", "empty commit message")  # fmt: skip
def _restore_index(index: Path, saved: bytes | None) -> None:
    from advisor.records.store import restore_bytes  # store builds on this module

    if saved is None:
        index.unlink(missing_ok=True)
    else:
        restore_bytes(index, saved)


def uncommitted_paths(repo: Repo, paths: Sequence[Path]) -> set[Path]:
    """Those of `paths` whose content is not what the last commit holds (new, changed or only staged)."""
    from git import GitCommandError

    relative = {repository_path(repo, path): path for path in paths}
    if not relative:
        return set()
    try:
        changed = repo.git.status("--porcelain", "--untracked-files=all", "--", *relative).splitlines()
    except GitCommandError:
        return set()
    names = {line[3:].strip().strip('"') for line in changed if len(line) > 3}
    return {path for name, path in relative.items() if name in names}


def ids_in_history(repo: Repo, records_dir: Path) -> set[int]:
    """Numbers of every record file ever committed in `records_dir` (so a deleted number is not reused)."""
    from git import GitCommandError

    from advisor.records.store import NUMBERED_NAME

    if not repo.head.is_valid():
        return set()
    relative = repository_path(repo, records_dir)
    try:
        names = repo.git.log("--all", "--name-only", "--pretty=format:", "--", relative or ".")
    except GitCommandError:
        return set()
    found = set()
    for line in names.splitlines():
        match = NUMBERED_NAME.match(Path(line.strip()).name)
        if match and Path(line.strip()).parent.as_posix() == (relative or "."):
            found.add(int(match.group(1)))
    return found


def record_history(repo: Repo, record_path: Path) -> list[RecordVersion]:
    """The commits that touched a record, newest first, with the version each one holds."""
    from advisor.records.history import record_histories  # it builds on this module's RecordVersion

    return record_histories(repo, [record_path])[record_path]


