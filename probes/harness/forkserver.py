"""A warm process that forks probe children, so a probe does not pay torch's import each time it starts.

`python -m probes.harness.forkserver FD` imports torch and the harness (never touching a device:
CUDA forbids forking after its initialisation), then waits on a Unix socket. For each request (a
job file, a log file, the environment, and the write end of the results pipe passed as a file
descriptor) it forks a child that becomes what `python -m probes.harness.worker` would have been:
its own session, its output in the log, the parent's environment. The server reaps its children and
reports each exit status, so the parent sees crashes, hangs and the out-of-memory killer exactly as
with a plain child process (isolation.py handles both through `ChildProcess`).

Lifetimes: the server dies with the advisor process (PR_SET_PDEATHSIG); each child dies with the
server. `ADVISOR_PROBE_FORKSERVER=0` turns the server off (every child then starts cold).
"""

from __future__ import annotations

import importlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path

FORKSERVER_ENV = "ADVISOR_PROBE_FORKSERVER"
PRELOAD = ("torch", "probes.harness.worker")  # imports only: no tensor op (OpenMP pools) and no device
_MESSAGE_BYTES = 1 << 20
_READY_TIMEOUT_S = 120.0  # a cold torch import on a busy host can take tens of seconds


def enabled() -> bool:
    """The fork server is used unless ADVISOR_PROBE_FORKSERVER=0, and only where fork and fd passing exist."""
    return os.environ.get(FORKSERVER_ENV, "1") != "0" and sys.platform.startswith("linux")


# The server side.


def _send(sock: socket.socket, message: Mapping[str, object]) -> None:
    sock.send(json.dumps(message).encode())


def _child(sock: socket.socket, request: Mapping[str, object], results_fd: int, server_fds: tuple[int, ...]) -> None:
    """In the forked child: become a fresh worker process, run the job, never return."""
    try:
        os.setsid()
        sock.close()
        signal.set_wakeup_fd(-1)
        for fd in server_fds:  # the server's own wake-up pipe
            os.close(fd)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        log = os.open(str(request["log"]), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        environment = request["env"]
        assert isinstance(environment, dict)
        os.environ.clear()  # this process is the probe child now: its state is its own to set
        os.environ.update(environment)
        tempfile.tempdir = None  # the server's was cached at its start; the child's TMPDIR is the request's
        os.chdir(str(request["cwd"]))
        from probes.harness.worker import main

        main([str(request["job"]), str(results_fd)])  # exits through os._exit
    except BaseException:  # noqa: BLE001 - whatever happens, the child must not return into the server loop
        import traceback

        traceback.print_exc()
    finally:
        os._exit(1)


def _reap(sock: socket.socket) -> None:
    """Report each ended child: its exit code and the CPU it (and what it reaped) used, which the parent's
    own accounting cannot see (RUSAGE_CHILDREN counts only the children it reaps itself)."""
    while True:
        try:
            pid, status, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        cpu_s = usage.ru_utime + usage.ru_stime
        _send(sock, {"exited": pid, "returncode": os.waitstatus_to_exitcode(status), "cpu_s": cpu_s})


def _warm(module: object) -> None:
    """Import a built-in probe's module here before forking, so its children and later runs start warm."""
    if isinstance(module, str) and module.startswith("probes."):
        try:
            importlib.import_module(module)
        except Exception:  # noqa: BLE001 - the child imports it again and reports the failure itself
            pass


def serve(sock: socket.socket) -> None:
    """Preload, say ready, then fork one child per request until the parent closes the socket."""
    from probes.harness.worker import PARENT_ENV, die_with_parent

    die_with_parent()
    began = time.monotonic()
    loaded = []
    for name in PRELOAD:
        try:
            importlib.import_module(name)
            loaded.append(name)
        except Exception:  # noqa: BLE001 - the child imports it again and reports the failure itself
            pass
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # the wakeup fd interrupts select
    _send(
        sock,
        {"ready": True, "preloaded": loaded, "seconds": time.monotonic() - began, "threads": threading.active_count()},
    )
    while True:
        readable, _, _ = select.select([sock.fileno(), wake_read], [], [])
        if wake_read in readable:
            os.read(wake_read, 4096)
        _reap(sock)
        if sock.fileno() not in readable:
            continue
        data, fds, _, _ = socket.recv_fds(sock, _MESSAGE_BYTES, 1)
        if not data:
            return  # the parent closed its end: nothing more to run
        request = json.loads(data)
        _warm(request.get("module"))  # while no child of ours is measuring
        request["env"][PARENT_ENV] = str(os.getpid())  # the child's parent is this server
        pid = os.fork()
        if pid == 0:
            _child(sock, request, fds[0], (wake_read, wake_write))
        for fd in fds:
            os.close(fd)  # the child holds the results pipe now; its end closes when the child dies
        _send(sock, {"pid": pid})


# The parent side.


class ForkServerError(Exception):
    """The server did not start or stopped answering; the caller falls back to a cold child."""


class ForkedChild:
    """A child forked by the server, with the parts of `subprocess.Popen` that isolation.py uses."""

    def __init__(self, server: ForkServer, pid: int) -> None:
        self.pid, self._server = pid, server
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """The exit code once the server reported it (negative: killed by that signal), else None."""
        if self.returncode is None:
            self.returncode = self._server.exit_code(self.pid, timeout=0.0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Block until the child's exit is reported; subprocess.TimeoutExpired past `timeout` seconds."""
        if self.returncode is None:
            self.returncode = self._server.exit_code(self.pid, timeout=timeout)
        if self.returncode is None:
            raise subprocess.TimeoutExpired(f"forked probe child {self.pid}", timeout or 0.0)
        return self.returncode

    def kill(self) -> None:
        """SIGKILL the child (its group is killed by the caller first)."""
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class ForkServer:
    """The parent's handle on one running server: start it, fork children through it, close it."""

    def __init__(self, environment: Mapping[str, str], log_path: Path) -> None:
        self._sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._exits: dict[int, int] = {}
        self._pids: list[int] = []
        self._ready: dict[str, object] | None = None
        with log_path.open("wb") as log:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "probes.harness.forkserver", str(theirs.fileno())],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                pass_fds=(theirs.fileno(),),
                start_new_session=True,
                env=dict(environment),
            )
        theirs.close()

    @property
    def pid(self) -> int:
        """The server process's pid."""
        return self._process.pid

    def alive(self) -> bool:
        """The server process is still running."""
        return self._process.poll() is None

    def _receive(self, timeout: float | None) -> bool:
        """Read one message into the state; False when none came within `timeout` (None: wait)."""
        if timeout is not None:
            readable, _, _ = select.select([self._sock], [], [], max(0.0, timeout))
            if not readable:
                return False
        data = self._sock.recv(_MESSAGE_BYTES)
        if not data:
            raise ForkServerError("the fork server closed its socket")
        message = json.loads(data)
        if "exited" in message:
            self._exits[int(message["exited"])] = int(message["returncode"])
            _count_forked_cpu(float(message.get("cpu_s", 0.0)))
        elif "pid" in message:
            self._pids.append(int(message["pid"]))
        elif message.get("ready"):
            self._ready = message
        return True

    def wait_ready(self, timeout: float = _READY_TIMEOUT_S) -> dict[str, object]:
        """Block until the server has preloaded (what it says about itself); ForkServerError if it died."""
        deadline = time.monotonic() + timeout
        while self._ready is None:
            if not self.alive():
                raise ForkServerError(f"the fork server exited with code {self._process.returncode}")
            if not self._receive(min(0.5, deadline - time.monotonic())) and time.monotonic() >= deadline:
                raise ForkServerError(f"the fork server was not ready within {timeout:.0f} s")
        return self._ready

    def spawn(
        self, job_path: Path, log_path: Path, results_fd: int, environment: Mapping[str, str], module: str | None = None
    ) -> ForkedChild:
        """Fork a worker child for `job_path` that writes results to `results_fd` and logs to `log_path`;
        `module` (a built-in probe's) is imported in the server first, and stays imported for later children."""
        self.wait_ready()
        request = {
            "job": str(job_path),
            "log": str(log_path),
            "env": dict(environment),
            "cwd": os.getcwd(),
            "module": module,
        }
        try:
            socket.send_fds(self._sock, [json.dumps(request).encode()], [results_fd])
            while not self._pids:
                if not self._receive(5.0) and not self.alive():
                    raise ForkServerError("the fork server died before forking")
        except OSError as error:
            raise ForkServerError(f"the fork server stopped answering: {error}") from None
        return ForkedChild(self, self._pids.pop(0))

    def exit_code(self, pid: int, timeout: float | None) -> int | None:
        """The child's exit code once reported; waits up to `timeout` seconds (None: until it comes)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while pid not in self._exits:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                if not self._receive(0.0):
                    return None
                continue
            if not self.alive() and not self._receive(0.0):
                return -signal.SIGKILL  # the server is gone; so, by its death signal, is the child
            self._receive(min(left, 0.5) if left is not None else 0.5)
        return self._exits.pop(pid)

    def close(self, *, at_once: bool = False) -> None:
        """Stop the server: closing the socket ends its loop; kill it if it lingers (`at_once`: kill it now, as a
        stopped run does, rather than wait for its interpreter to shut down)."""
        self._sock.close()
        if at_once:
            self._process.kill()
        try:
            self._process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


_server: ForkServer | None = None
_server_lock = threading.Lock()
_forked_cpu_s = 0.0  # CPU seconds of every child the servers forked and reaped, as they reported it


def _count_forked_cpu(seconds: float) -> None:
    global _forked_cpu_s
    _forked_cpu_s += seconds


def forked_cpu_seconds() -> float:
    """CPU time this process's probe work spent outside its own accounting: the children forked by fork
    servers (reported when reaped) and the live server itself (a server that ended was reaped here)."""
    server_cpu = 0.0
    if _server is not None and _server.alive():
        try:
            import psutil

            times = psutil.Process(_server.pid).cpu_times()
            server_cpu = times.user + times.system
        except Exception:  # noqa: BLE001 - it just ended: reaped here, so RUSAGE_CHILDREN has it
            server_cpu = 0.0
    return _forked_cpu_s + server_cpu


def shared_server(environment: Mapping[str, str], folder: Path) -> ForkServer:
    """The process's fork server (its log in `folder`), started on first use and again after it died."""
    global _server
    with _server_lock:
        if _server is None or not _server.alive():
            if _server is not None:
                _server.close()
            else:
                import atexit

                atexit.register(drop_shared_server)
            _server = ForkServer(environment, folder / "forkserver.log")
        return _server


def shared_server_pid() -> int | None:
    """The pid of this process's fork server while it runs (it outlives each probe by design)."""
    return _server.pid if _server is not None and _server.alive() else None


def drop_shared_server(*, at_once: bool = False) -> None:
    """Forget (and stop) the shared server, e.g. after it failed; the next use starts a new one."""
    global _server
    with _server_lock:
        if _server is not None:
            _server.close(at_once=at_once)
            _server = None


if __name__ == "__main__":
    serve(socket.socket(fileno=int(sys.argv[1])))
