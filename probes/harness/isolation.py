"""Run one probe child process, relay its messages as they arrive, and kill it on a hang or overrun.

The child runs in its own session: Ctrl-C reaches only the parent, which then kills the child's
whole process group (anything it forked too). Results travel on a dedicated pipe, so a library
printing to stdout cannot corrupt them; stdout and stderr go to a log kept for failure reports.
"""

from __future__ import annotations

import atexit
import os
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from pydantic import ValidationError

from probes.harness import forkserver
from probes.harness.protocol import (
    CaseResultMessage,
    CaseStartMessage,
    DoneMessage,
    ProbeFailureMessage,
    WorkerJob,
    WorkerMessage,
    decode_message,
)

_POLL_S = 0.1  # how often an idle parent checks whether the child has died
_EXIT_WAIT_S = 1.0
_LOG_TAIL_LINES = 25  # room for faulthandler's header above a probe child's stack and its module list
_REPOSITORY_ROOT = Path(__file__).resolve().parents[2]
_SIGNAL_REASONS: dict[int, str] = {
    signal.SIGSEGV: "crashed: segmentation fault (SIGSEGV)",
    signal.SIGBUS: "crashed: bus error (SIGBUS)",
    signal.SIGABRT: "crashed: aborted (SIGABRT)",
    signal.SIGFPE: "crashed: floating-point exception (SIGFPE)",
    signal.SIGILL: "crashed: illegal instruction (SIGILL)",
    signal.SIGKILL: "killed by SIGKILL (likely the out-of-memory killer)",
}


@dataclass
class WorkerExit:
    """How a child ended. `finished`: it sent "done"; otherwise `reason` says what went wrong.

    `out_of_time`: killed because the probe's share ended, which is the budget's doing, not a fault.
    """

    finished: bool
    reason: str | None = None
    log_tail: str | None = None
    out_of_time: bool = False


def describe_exit_code(returncode: int) -> str:
    """A crash reason for a child that died without saying "done"."""
    if returncode < 0:
        number = -returncode
        if number in _SIGNAL_REASONS:
            return _SIGNAL_REASONS[number]
        try:
            return f"killed by signal {signal.Signals(number).name}"
        except ValueError:
            return f"killed by signal {number}"
    return f"exited with code {returncode} before finishing"


def _child_environment() -> dict[str, str]:
    # The child must import this very checkout, even when the parent found it through sys.path tricks;
    # it learns its parent's pid so that it dies with it (worker.die_with_parent). Its temporary files (torch's
    # compile caches, an AOT compile's scratch folder) go into this run's own folder: a child killed at its
    # deadline or by Ctrl-C cannot clean up after itself, and the folder goes when the run ends or stops.
    from probes.harness.worker import PARENT_ENV

    environment = dict(os.environ)
    environment[PARENT_ENV] = str(os.getpid())
    children_tmp = _forkserver_folder() / CHILDREN_TMP
    children_tmp.mkdir(exist_ok=True)
    environment["TMPDIR"] = str(children_tmp)
    existing = environment.get("PYTHONPATH")
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(_REPOSITORY_ROOT), existing]))
    return environment


def _kill_group(process: ChildProcess) -> None:
    # Always, even when the child has exited: whatever it forked (compile workers...) is in its group.
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(timeout=_EXIT_WAIT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def log_tail(path: Path) -> str | None:
    """The last lines a child wrote to its log, or None when there are none."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return None
    return "\n".join(lines[-_LOG_TAIL_LINES:]) or None


TEMP_PREFIX = "advisor-probe-"
OWNER_FILE = "owner.pid"
CHILDREN_TMP = "tmp"  # the probe children's TMPDIR, inside the run's folder


def remove_orphaned_folders(parent: Path | None = None) -> list[Path]:
    """Delete the temporary folders of runs whose process is gone (a killed `advisor probe`)."""
    removed = []
    for folder in Path(parent or tempfile.gettempdir()).glob(f"{TEMP_PREFIX}*"):
        owner = _owner(folder)
        if owner is None:
            continue  # not ours to judge: no owner recorded
        if not _alive(owner):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _owner(folder: Path) -> int | None:
    """The pid of the run that made the folder: its owner file, else the pid its name carries
    ('advisor-probe-<pid>-<hex>', made before the owner file is written)."""
    try:
        return int((folder / OWNER_FILE).read_text().strip())
    except (OSError, ValueError):
        pass
    pid, _, tail = folder.name.removeprefix(TEMP_PREFIX).partition("-")
    return int(pid) if pid.isdigit() and tail else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class ChildProcess(Protocol):
    """What isolation needs of a child: `subprocess.Popen`, or a child forked by the fork server."""

    pid: int
    returncode: int | None

    def poll(self) -> int | None: ...
    def wait(self, timeout: float | None = None) -> int: ...
    def kill(self) -> None: ...


_server_folder: Path | None = None
_own_folders: set[Path] = set()  # this process's folders, each entered here before it exists; what is left goes at exit


def _make_own_folder() -> Path:
    """A new private folder, named with this process's pid (so an orphan is cleaned up) and known before it exists:
    a signal at any point of its making (SIGTERM while the machine is detected) leaves nothing that
    `_remove_own_folder` or the exit handler cannot find."""
    while True:
        folder = Path(tempfile.gettempdir()) / f"{TEMP_PREFIX}{os.getpid()}-{secrets.token_hex(4)}"
        _own_folders.add(folder)
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            _own_folders.discard(folder)  # another's: a new name
            continue
        (folder / OWNER_FILE).write_text(str(os.getpid()))
        return folder


def _remove_own_folder(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    _own_folders.discard(folder)


def _remove_own_folders() -> None:
    for folder in list(_own_folders):
        _remove_own_folder(folder)


atexit.register(_remove_own_folders)


def _forkserver_folder() -> Path:
    """This process's temporary folder for the fork server's log and the probe children's TMPDIR."""
    global _server_folder
    if _server_folder is None or not _server_folder.is_dir():
        _server_folder = _make_own_folder()
    return _server_folder


def prestart_forkserver() -> None:
    """Start the fork server now (its torch import overlaps the caller's own work); harmless when off."""
    if forkserver.enabled():
        try:
            forkserver.shared_server(_child_environment(), _forkserver_folder())
        except OSError:
            pass  # the first probe falls back to a cold child


def stop_forkserver() -> None:
    """End the fork server and remove its folder now (a stopped run forks nothing more); the next use starts anew."""
    global _server_folder
    forkserver.drop_shared_server(at_once=True)  # its children are dead already; nothing of it is worth waiting for
    if _server_folder is not None:
        _remove_own_folder(_server_folder)
        _server_folder = None


def _builtin_module(probe: str) -> str | None:
    from probes.declarations import PROBES_DIR

    return f"probes.{probe}.probe" if (PROBES_DIR / probe / "probe.py").is_file() else None


def _start_child(job_path: Path, log_path: Path, write_fd: int, probe: str) -> ChildProcess:
    """A warm child forked by the fork server; a cold `python -m probes.harness.worker` when that fails."""
    environment = _child_environment()
    if forkserver.enabled():
        try:
            server = forkserver.shared_server(environment, _forkserver_folder())
            return server.spawn(job_path, log_path, write_fd, environment, _builtin_module(probe))
        except (forkserver.ForkServerError, OSError):
            forkserver.drop_shared_server()
    with log_path.open("wb") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "probes.harness.worker", str(job_path), str(write_fd)],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            pass_fds=(write_fd,),
            start_new_session=True,
            env=environment,
        )


def run_worker(job: WorkerJob, *, hard_deadline: float, on_message: Callable[[WorkerMessage], None]) -> WorkerExit:
    """Run `job` in a child until it says "done", dies, or a deadline (time.monotonic) passes."""
    remove_orphaned_folders()
    folder = _make_own_folder()
    try:
        job_path, log_path = folder / "job.json", folder / "child.log"
        job_path.write_text(job.model_dump_json())
        read_fd, write_fd = os.pipe()
        try:
            process = _start_child(job_path, log_path, write_fd, job.probe)
            os.close(write_fd)
            write_fd = -1
            try:
                outcome = _follow(process, read_fd, hard_deadline, on_message)
            finally:
                _kill_group(process)
            if not outcome.finished and outcome.reason is None:
                outcome.reason = describe_exit_code(process.returncode if process.returncode is not None else 1)
        finally:
            os.close(read_fd)
            if write_fd >= 0:
                os.close(write_fd)
        if not outcome.finished:
            outcome.log_tail = log_tail(log_path)
        return outcome
    finally:
        _remove_own_folder(folder)


def _follow(
    process: ChildProcess, read_fd: int, hard_deadline: float, on_message: Callable[[WorkerMessage], None]
) -> WorkerExit:
    pending = b""
    hang_deadline: float | None = None
    try:
        while True:
            limit = hard_deadline if hang_deadline is None else min(hard_deadline, hang_deadline)
            now = time.monotonic()
            if now >= limit:
                if hang_deadline is not None and hang_deadline <= hard_deadline:
                    return WorkerExit(False, "hung: no result well past its time share; killed")
                return WorkerExit(False, "the probe's time share ran out while it ran; killed", out_of_time=True)
            readable, _, _ = select.select([read_fd], [], [], min(limit - now, _POLL_S))
            if not readable:
                if process.poll() is not None:
                    return WorkerExit(False)  # dead, yet a grandchild holds the pipe open
                continue
            chunk = os.read(read_fd, 1 << 16)
            if not chunk:
                return WorkerExit(False)  # end of file: the child is gone (exit code read by the caller)
            messages, pending = _decoded(pending + chunk)
            for message in messages:
                if isinstance(message, CaseStartMessage):
                    hang_deadline = message.hang_deadline
                elif isinstance(message, CaseResultMessage):
                    hang_deadline = None
                on_message(message)
                if isinstance(message, DoneMessage):
                    return WorkerExit(True)
                if isinstance(message, ProbeFailureMessage):
                    return WorkerExit(False, message.reason)
    except BaseException:  # a signal stopped the run: what the child already wrote still counts (the case it began)
        _deliver_waiting(read_fd, pending, on_message)
        raise


def _decoded(buffer: bytes) -> tuple[list[WorkerMessage], bytes]:
    """The whole lines of `buffer` as messages, and the partial line left after them."""
    *lines, pending = buffer.split(b"\n")
    messages = []
    for line in lines:
        try:
            messages.append(decode_message(line))
        except ValidationError:
            continue  # a torn line cannot happen on a pipe we alone write to; ignore rather than die
    return messages, pending


def _deliver_waiting(read_fd: int, pending: bytes, on_message: Callable[[WorkerMessage], None]) -> None:
    """Hand on the messages already waiting in the pipe, without blocking (a signal arrived between the child's write
    and the parent's read: a busy host's CI saw a started case reported as never run)."""
    while select.select([read_fd], [], [], 0)[0]:
        chunk = os.read(read_fd, 1 << 16)
        if not chunk:
            return
        messages, pending = _decoded(pending + chunk)
        for message in messages:
            on_message(message)
