"""Versioning records with git (GitPython): commit exactly the record files, read their history.

`commit_paths` stages and commits only the given paths (`git commit --only`), so the user's other
staged and unstaged changes stay as they were: neither committed nor lost. Finding the repository, and
importing GitPython only then, is advisor/records/paths.py's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from advisor.interrupts import stop_deferred
from advisor.records.models import RecordError
from advisor.records.paths import NUMBERED_NAME, require_git
from advisor.records.store import restore_bytes
from probes.errors import MachineError

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
                 "couldn't write", "unable to write", "write error", "empty commit message")
def _restore_index(index: Path, saved: bytes | None) -> None:
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
        # GIT_OPTIONAL_LOCKS=0: a plain status may rewrite the index to refresh its stat data, a write to the user's
        # repository before anything is committed (and one a nearly full disk can leave half done)
        with repo.git.custom_environment(GIT_OPTIONAL_LOCKS="0"):
            changed = repo.git.status("--porcelain", "--untracked-files=all", "--", *relative).splitlines()
    except GitCommandError:
        return set()
    names = {line[3:].strip().strip('"') for line in changed if len(line) > 3}
    return {path for name, path in relative.items() if name in names}


def ids_in_history(repo: Repo, records_dir: Path) -> set[int]:
    """Numbers of every record file ever committed in `records_dir` (so a deleted number is not reused)."""
    from git import GitCommandError

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
