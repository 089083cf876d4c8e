"""Where records are: the number a record's files start with, and the git repository that holds a folder.

Both git.py and store.py build on this module, and it on neither, so the records modules import one way.

GitPython is imported when a repository is first looked for, not with this module: it refuses to import
at all when no git executable is found, and that is then one MachineError line (exit code 1) from the
commands that need git, while those that do not (`records show`, `review --due --check`) still run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from probes.errors import MachineError

if TYPE_CHECKING:
    from git import Repo

NUMBERED_NAME = re.compile(r"^(\d{4,})-")


def require_git() -> None:
    """Import GitPython; MachineError naming what is missing when it cannot be (no git executable found)."""
    try:
        import git  # noqa: F401 - imported for its check of the git executable
    except ImportError as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise MachineError(f"git is not found (GitPython: {first[:120]}): advisor versions records with git; install "
                           "git, put it on PATH or set GIT_PYTHON_GIT_EXECUTABLE") from None


@contextmanager
def open_repository(path: Path) -> Iterator[Repo | None]:
    """The git repository containing `path` (or its nearest existing parent), or None; MachineError without git.
    Closed when the block ends: GitPython's object-database readers are `git cat-file` processes that would
    otherwise outlive the command (one pair per site build in a long `advisor site serve`)."""
    repo = find_repository(path)
    try:
        yield repo
    finally:
        if repo is not None:
            repo.close()


def find_repository(path: Path) -> Repo | None:
    """The git repository containing `path` (or its nearest existing parent), or None; the caller closes it."""
    require_git()
    from git import InvalidGitRepositoryError, NoSuchPathError, Repo

    probe = path.resolve()
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        return Repo(probe, search_parent_directories=True)
    except (InvalidGitRepositoryError, NoSuchPathError):
        return None
