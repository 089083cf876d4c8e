"""The one exception type the CLI turns into a one-line error and a non-zero exit code."""

from __future__ import annotations

import os

USAGE_EXIT = 2  # bad input: a flag, a file's content, an id
MACHINE_EXIT = 1  # the machine: a read-only or full disk, a file-size limit, git missing


class AdvisorError(Exception):
    """A user-facing problem: bad input, a malformed file, a missing device. The message is one line."""

    exit_code = USAGE_EXIT


class MachineError(AdvisorError):
    """The machine stopped advisor, not the input (a read-only or full disk, git missing): exit code 1."""

    exit_code = MACHINE_EXIT


def machine_error(error: OSError, doing: str) -> MachineError:
    """A MachineError saying what failed (`doing`, e.g. 'cannot write records/0002-x.md') and why, in one line."""
    reason = error.strerror or (os.strerror(error.errno) if error.errno else type(error).__name__)
    return MachineError(f"{doing} ({reason})")
