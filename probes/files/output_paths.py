"""Where advisor may write: the checks every output path passes before anything is written.

Two rules hold for every file and folder advisor writes:
- it writes regular files only: never through a device, FIFO, socket or folder path (as root, an
  atomic rename onto /dev/full would replace the device node with a file);
- it never writes over, or as, the places that hold the user's work: a git repository's root or its
  `.git`, the records folder, the home folder, the filesystem root, or any folder above them.

Whether an existing file or folder is advisor's own to replace is for the caller to prove (evidence
that parses, a site folder with advisor's manifest); these checks only say what is never allowed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from probes.errors import AdvisorError
from probes.files.bounded_read import file_type_text


class OutputPathError(AdvisorError):
    """An output path advisor must not write: the message names the flag or setting and the path."""


def file_kind(path: Path) -> str | None:
    """What `path` is when it exists and is not a regular file ('a folder', 'a FIFO (named pipe)', ...),
    following symbolic links; None when it is a regular file or does not exist."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"unreadable ({error.strerror})"
    return file_type_text(mode)


def check_regular_target(path: Path, what: str) -> None:
    """OutputPathError unless `path` is missing or a regular file (after symbolic links): `what` names it."""
    kind = file_kind(path)
    if kind is not None:
        raise OutputPathError(f"{what} {path}: {kind}, not a regular file; advisor writes only regular files")
    if path.is_symlink() and not path.exists():
        raise OutputPathError(f"{what} {path}: a symbolic link to a missing file; give the real path")


def git_root_of(path: Path) -> Path | None:
    """The working tree root of the git repository holding `path` (or its nearest existing parent)."""
    probe = path.resolve()
    for folder in [probe, *probe.parents]:
        if (folder / ".git").exists():
            return folder
    return None


def protected_folders(
    records_dir: Path | None = None, project_root: Path | None = None, extra: Iterable[tuple[Path, str]] = ()
) -> dict[Path, str]:
    """The folders no output may be, nor contain, each with its name for errors: the filesystem root,
    the home folder, the repository root and `.git` of the current folder, the project and the records
    folder, the project root and the records folder (all resolved)."""
    found: dict[Path, str] = {Path("/").resolve(): "the filesystem root"}
    try:
        found[Path.home().resolve()] = "the home folder"
    except RuntimeError:  # no home folder can be determined
        pass
    for start in (Path.cwd(), project_root, records_dir):
        root = git_root_of(start) if start is not None else None
        if root is not None:
            found.setdefault(root, "the git repository")
            found.setdefault(root / ".git", "the repository's .git folder")
    if project_root is not None:
        found.setdefault(project_root.resolve(), "the project root")
    if records_dir is not None:
        found[records_dir.resolve()] = "the records folder"
    for path, name in extra:
        found.setdefault(path.resolve(), name)
    return found


def check_output_folder(folder: Path, what: str, protected: dict[Path, str]) -> None:
    """OutputPathError when `folder` (resolved) is a protected folder, an ancestor of one, inside a `.git`,
    or the root of some git repository: a folder that will be replaced must hold nothing of the user's."""
    target = folder.resolve()
    instead = "choose a folder of its own, such as site-build/ in the project"
    if ".git" in target.parts:
        raise OutputPathError(
            f"{what} {folder}: inside a .git folder; choose a folder outside the repository's internals"
        )
    if (target / ".git").exists():
        raise OutputPathError(f"{what} {folder}: the root of a git repository; {instead}")
    for place, name in protected.items():
        if target == place:
            raise OutputPathError(f"{what} {folder}: is {name} ({place}); {instead}")
        if target in place.parents:
            raise OutputPathError(f"{what} {folder}: holds {name} ({place}); {instead}")


def check_inside(path: Path, root: Path, what: str, hint: str = "") -> Path:
    """`path` made absolute against `root`; OutputPathError when it, symbolic links followed, leaves `root`.
    `hint` ends the error (what to do instead); by default, that a flag may point anywhere."""
    absolute = path if path.is_absolute() else root / path
    resolved, top = absolute.resolve(), root.resolve()
    if resolved != top and top not in resolved.parents:
        shown = f"{path} (which is {resolved})" if resolved != absolute else str(path)
        tail = (
            hint or "a settings file may only name folders inside the project (a command-line flag may point anywhere)"
        )
        raise OutputPathError(f"{what} {shown} is outside the project root {top}; {tail}")
    return absolute


def check_output_file(
    path: Path, what: str, *, force: bool, is_ours: Callable[[Path], bool], kind: str, kept_folders: dict[Path, str]
) -> None:
    """OutputPathError when writing the file `path` could destroy something of the user's: it is a folder,
    device, FIFO or socket, or lies inside a `.git` folder (always refused); it lies inside one of
    `kept_folders` (folder -> what it holds, e.g. the records folder); or it exists and `is_ours` says it is
    not a `kind` file advisor wrote. The last two only without `force`, the user's word that it may go."""
    check_regular_target(path, what)
    target = path.resolve()
    if ".git" in target.parts[:-1]:
        raise OutputPathError(f"{what} {path}: inside a .git folder; write it elsewhere")
    if force:
        return
    for folder, holds in kept_folders.items():
        if folder.resolve() in target.parents:
            raise OutputPathError(
                f"{what} {path}: inside {folder}, which holds {holds}; write it elsewhere, or pass --force"
            )
    if target.exists() and not is_ours(target):
        raise OutputPathError(
            f"{what} {path}: exists and is not {kind}; refusing to overwrite it "
            "(choose another file, or pass --force to replace it)"
        )
