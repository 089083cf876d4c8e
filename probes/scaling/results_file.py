"""How the scaling processes and the parent talk: rank 0 appends JSON lines to a file; each rank leaves its pid
and, when it dies of a Python error, one line saying why.

The lines are the harness's own messages (probes.harness.protocol): case-start, case-result, done.
A file, not a pipe: torchrun starts the processes, so they inherit nothing from the parent but the
environment and the command line, and a file works the same on every node.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ValidationError

from probes.harness.protocol import WorkerMessage, decode_message, encode_message

RESULTS_FILE = "results.jsonl"
JOB_FILE = "job.json"


def error_path(folder: Path, rank: int) -> Path:
    """Where rank `rank` writes the one-line reason it died."""
    return folder / f"error-rank{rank}.txt"


def pid_path(folder: Path, rank: int) -> Path:
    """Where rank `rank` writes its process id (the parent kills leftovers after torchrun is gone)."""
    return folder / f"pid-rank{rank}"


class ResultsWriter:
    """Rank 0's end: one message per line, flushed as it happens, so a crash keeps what was sent."""

    def __init__(self, path: Path) -> None:
        self._path = path

    def send(self, message: BaseModel) -> None:
        """Append one JSON line in a single write."""
        with self._path.open("ab") as stream:
            stream.write(encode_message(message))


class ResultsReader:
    """The parent's end: the messages appended since the last call; a torn last line waits for its end."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._offset = 0

    def new_messages(self) -> list[WorkerMessage]:
        """Complete lines written since the last call, decoded; unreadable lines are skipped."""
        try:
            with self._path.open("rb") as stream:
                stream.seek(self._offset)
                data = stream.read()
        except FileNotFoundError:
            return []
        complete = data[: data.rfind(b"\n") + 1]
        self._offset += len(complete)
        messages: list[WorkerMessage] = []
        for line in complete.splitlines():
            try:
                messages.append(decode_message(line))
            except ValidationError:
                continue
        return messages


def first_error(folder: Path) -> tuple[int, str] | None:
    """(rank, reason) of the earliest error line on this node: the cause, not its echoes on the other ranks."""
    found: list[tuple[float, int, str]] = []
    for path in folder.glob("error-rank*.txt"):
        try:
            found.append((path.stat().st_mtime, int(path.stem.removeprefix("error-rank")), path.read_text().strip()))
        except (OSError, ValueError):
            continue
    if not found:
        return None
    _, rank, reason = min(found)
    return rank, reason


def failure_reason(folder: Path) -> str | None:
    """Why this node's processes failed, in one line; None when none of them said.

    A rank that dies without a Python error (a crash, os._exit, the OOM killer) leaves no line, and
    its peers then fail on the lost connection; name the silent rank first, since it is the cause.
    """
    error = first_error(folder)
    silent = sorted(set(_ranks(folder, "pid-rank")) - set(_ranks(folder, "error-rank")))
    if silent and (error is None or any(marker in error[1] for marker in _LOST_PEER)):
        ranks = ", ".join(str(rank) for rank in silent)
        reason = f"rank {ranks} ended without a Python error (a crash, an exit or a kill: see the log tail)"
        return reason if error is None else f"{reason}; then {error[1][:160]}"
    return error[1] if error is not None else None


# How a collective reports a peer that went away (gloo's TCP pairs; NCCL/HCCL report it as a timeout or abort).
_LOST_PEER = ("Connection reset by peer", "Connection closed by peer", "Broken pipe", "imed out", "abort")


def _ranks(folder: Path, prefix: str) -> list[int]:
    ranks = []
    for path in folder.glob(f"{prefix}*"):
        number = path.stem.removeprefix(prefix)
        if number.isdigit():
            ranks.append(int(number))
    return ranks


def worker_pids(folder: Path) -> list[int]:
    """The process ids this node's ranks wrote."""
    pids = []
    for path in folder.glob("pid-rank*"):
        try:
            pid = int(path.read_text().strip())
        except (OSError, ValueError):
            continue
        if pid > 1:  # never 0 or 1: killpg(0) would signal the parent's own group
            pids.append(pid)
    return pids
