"""Read a file a user named (a flag, a setting, an environment variable) without trusting what it is.

Regular files only: a folder, FIFO, socket or device is refused by its kind before it is opened, and the
open itself never blocks (O_NONBLOCK: a FIFO swapped in after the check opens at once and is refused on
fstat). Each kind of file has a size cap, checked on st_size before reading and again while reading (at
most cap + 1 bytes are read), so /proc files, which report size 0, and files still growing are bounded
too. Every failure is the reader's own AdvisorError subclass, one line naming the file.

Machine facts read from /proc and /sys while detecting the environment (probes/environment/) are not
user files and are read where they are detected.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from probes.errors import AdvisorError

_CHUNK_BYTES = 1 << 20
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)


def size_text(size: int) -> str:
    """A byte count as people write a cap: 64 KiB, 256 MiB, 2 GiB (bytes when not a whole unit)."""
    for unit, factor in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= factor and size % factor == 0:
            return f"{size // factor} {unit}"
    return f"{size} bytes"


def file_type_text(mode: int) -> str | None:
    """What a non-regular file is, in words ('a FIFO (named pipe)'); None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    for test, words in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return words
    return "not a regular file"


@dataclass(frozen=True)
class FileKind:
    """One kind of file advisor reads: its name in messages ('profile file'), its size cap, its error type."""

    noun: str
    cap: int
    error: type[AdvisorError]

    @property
    def a_noun(self) -> str:
        """The noun with its article: 'a profile file', 'an evidence file'."""
        return f"{'an' if self.noun[:1].lower() in 'aeio' else 'a'} {self.noun}"

    def too_large(self, origin: str) -> AdvisorError:
        """The error for a file (or text) past the cap."""
        return self.error(f"{origin}: larger than {self.a_noun} may be ({size_text(self.cap)})")

    def not_regular(self, origin: str, mode: int) -> AdvisorError:
        """The error for a folder, FIFO, socket or device given where a file of this kind was expected."""
        return self.error(f"{origin}: {file_type_text(mode)}, not {self.a_noun}")

    def unreadable(self, origin: str, error: OSError) -> AdvisorError:
        """The error for a file the system would not open or read."""
        if isinstance(error, FileNotFoundError):
            return self.error(f"{origin}: no such file")
        return self.error(f"{origin}: cannot read the {self.noun} ({error.strerror or error})")


def read_bounded(path: Path | str, kind: FileKind, origin: str | None = None) -> bytes:
    """The bytes of a regular file of at most `kind.cap` bytes; else `kind.error` naming `origin` (default: the path)."""
    where = str(path) if origin is None else origin
    try:
        status = os.stat(path)  # before opening: a device is never opened, a FIFO never waited on
        if file_type_text(status.st_mode) is not None:
            raise kind.not_regular(where, status.st_mode)
        if status.st_size > kind.cap:
            raise kind.too_large(where)
        descriptor = os.open(path, _OPEN_FLAGS)
        try:
            opened = os.fstat(descriptor)
            if file_type_text(opened.st_mode) is not None:  # replaced between the check and the open
                raise kind.not_regular(where, opened.st_mode)
            return _read_at_most(descriptor, kind, where)
        finally:
            os.close(descriptor)
    except OSError as error:
        raise kind.unreadable(where, error) from None
    except ValueError:  # a NUL byte in the name
        raise kind.error(f"{where}: not a usable file name") from None


def read_bounded_text(path: Path | str, kind: FileKind, origin: str | None = None) -> str:
    """`read_bounded` decoded as UTF-8; `kind.error` naming the file when it is not UTF-8 text."""
    where = str(path) if origin is None else origin
    data = read_bounded(path, kind, where)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise kind.error(f"{where}: not UTF-8 text, so not {kind.a_noun}") from None


def _read_at_most(descriptor: int, kind: FileKind, where: str) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while total <= kind.cap:  # one byte past the cap proves the file is too large
        chunk = os.read(descriptor, min(_CHUNK_BYTES, kind.cap + 1 - total))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
    raise kind.too_large(where)
