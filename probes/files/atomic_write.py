"""Write files so a reader never sees half of one: a temporary beside the target, then a rename.

The target must be missing or a regular file: a rename onto a device, FIFO or socket would replace the
node itself (as root, /dev/full would become a file). A symbolic link is followed, so the file it names
is replaced and the link stays.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from probes.files.output_paths import check_regular_target

TEMP_SUFFIX = ".tmp"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_temporary(path: Path, text: str) -> Path:
    """Write `text` to a hidden temporary in path's folder (fsynced, mode as for a new file); rename it yourself."""
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    temporary = Path(name)
    try:
        # mkstemp creates 0600; a record or evidence file is shared like any file the user creates.
        os.fchmod(handle, 0o666 & ~_umask())
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


def real_target(path: Path) -> Path:
    """The file a write to `path` replaces: symbolic links followed; OutputPathError for anything not a regular file."""
    check_regular_target(path, "cannot write")
    return Path(os.path.realpath(path))


def write_text_atomically(path: Path, text: str) -> None:
    """Create or replace `path` with `text` in one rename; on any failure nothing changes."""
    path = real_target(path)
    temporary = write_temporary(path, text)
    try:
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def write_bytes_atomically(path: Path, data: bytes) -> None:
    """Create or replace `path` with `data` in one rename (same rules as write_text_atomically)."""
    path = real_target(path)
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    temporary = Path(name)
    try:
        os.fchmod(handle, 0o666 & ~_umask())
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
