"""The torchrun command line of one node, and how to stop it and every process it started.

torchrun (torch.distributed.run) starts, watches and tears down the processes; the flags use the
underscore spellings, which every torch 2.x accepts (Ascend stacks often run older ones).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from probes.scaling.options import ResolvedLaunch
from probes.scaling.results_file import worker_pids

_MONITOR_INTERVAL_S = 0.5  # torchrun notices a dead process this quickly (older torch defaults to 5 s)
_TERMINATE_WAIT_S = 5.0  # torchrun, sent SIGTERM, passes it on to its processes and exits


def torchrun_command(launch: ResolvedLaunch, job_path: Path, folder: Path) -> list[str]:
    """`python -m torch.distributed.run ... -m probes.scaling.worker JOB FOLDER` for this node."""
    command = [
        sys.executable,
        "-m",
        "torch.distributed.run",
        f"--nproc_per_node={launch.nproc}",
        f"--nnodes={launch.nnodes}",
        "--max_restarts=0",
        f"--monitor_interval={_MONITOR_INTERVAL_S}",
    ]
    if launch.rdzv_endpoint is None:
        command.append("--standalone")  # one node: a rendezvous on a free local port
    else:
        # A fixed node rank needs the static rendezvous (node 0 hosts it); otherwise c10d numbers the nodes.
        backend = "static" if launch.node_rank is not None else "c10d"
        command += [f"--rdzv_backend={backend}", f"--rdzv_endpoint={launch.rdzv_endpoint}"]
        command.append(f"--rdzv_id={launch.rdzv_id}")
        if launch.node_rank is not None:
            command.append(f"--node_rank={launch.node_rank}")
    return command + ["-m", "probes.scaling.worker", str(job_path), str(folder)]


def stop_launch(process: subprocess.Popen[bytes], folder: Path) -> None:
    """SIGTERM torchrun (it stops its processes), SIGKILL its group if it lingers, then any process left over."""
    if process.poll() is None:
        _signal_group(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=_TERMINATE_WAIT_S)
        except subprocess.TimeoutExpired:
            pass
    _signal_group(process.pid, signal.SIGKILL)  # whatever torchrun itself forked
    process.wait()
    # torchrun starts each process in a session of its own: a killed torchrun would leave them behind.
    for pid in worker_pids(folder):
        if _is_scaling_worker(pid):
            _signal_group(pid, signal.SIGKILL)


def _signal_group(pid: int, number: signal.Signals) -> None:
    try:
        os.killpg(pid, number)
    except (ProcessLookupError, PermissionError):
        pass


def _is_scaling_worker(pid: int) -> bool:
    """True when `pid` still runs probes.scaling.worker (not a process that reused the id)."""
    try:
        return b"probes.scaling.worker" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
