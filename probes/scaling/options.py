"""How the scaling probe is launched: processes per node, nodes, rendezvous; checked before anything starts.

The flags mirror torchrun's (`--nproc-per-node`, `--nnodes`, `--node-rank`, `--rdzv-endpoint`,
`--rdzv-id`), so a cluster user starts the same `advisor probe scaling` on every node.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from pydantic import Field

from probes.errors import AdvisorError
from probes.harness.device_choice import DeviceKind, accelerator_backend, parse_device
from probes.models import OptionValue
from probes.registry import ProbeOptions, ProbeOptionsError, validate_options

# torch.distributed backend per device kind: gloo on the host, the vendor's collective library on accelerators.
BACKENDS: dict[DeviceKind, str] = {"cpu": "gloo", "cuda": "nccl", "npu": "hccl"}
DEFAULT_CPU_PROCESSES = 2
_RDZV_ID = re.compile(r"^[A-Za-z0-9_.-]+$")


class LaunchOptionError(AdvisorError):
    """A launch flag with a value that cannot work; the message is one line and names the flag."""


class LaunchOptions(ProbeOptions):
    """The scaling probe's options, as `run_probes(probe_options={"scaling": {...}})` carries them.

    None means "choose for this machine" (see `resolve_launch`).
    """

    nproc: int | None = Field(
        None,
        json_schema_extra={"metavar": "N"},
        description="processes per node (default: one per GPU/NPU, 2 on a CPU).",
    )
    nnodes: int = Field(
        1, json_schema_extra={"metavar": "N"}, description="nodes in the job (default 1); run the same command on each."
    )
    # Given: static rendezvous (node 0 hosts it); None: c10d assigns ranks.
    node_rank: int | None = Field(
        None,
        json_schema_extra={"metavar": "RANK"},
        description=(
            "this node's rank, 0 to nnodes-1; fixes the ranks (node 0 hosts the rendezvous and writes the results). "
            "Without it the rendezvous numbers the nodes."
        ),
    )
    rdzv_endpoint: str | None = Field(
        None,
        json_schema_extra={"metavar": "HOST:PORT"},
        description=(
            "rendezvous address every node can reach (needed with --nnodes > 1; default on one node: a free local "
            "port)."
        ),
    )
    rdzv_id: str | None = Field(
        None, json_schema_extra={"metavar": "ID"}, description="job id for the rendezvous, the same on every node."
    )

    @classmethod
    def check_flags(cls, values: Mapping[str, OptionValue]) -> None:
        """What no machine could launch, before anything runs (where it runs is checked by `resolve_launch`)."""
        check_launch_options(cls.model_validate(values))  # a LaunchOptionError names the flag: one line


@dataclass(frozen=True)
class ResolvedLaunch:
    """Launch options with every choice made for one device kind."""

    nproc: int
    nnodes: int
    node_rank: int | None
    rdzv_endpoint: str | None
    rdzv_id: str
    backend: str
    device_kind: DeviceKind
    library: str = ""  # the collective library under `backend` when it is another: RCCL behind "nccl" on ROCm

    @property
    def world(self) -> int:
        """Processes in the whole job (every node)."""
        return self.nproc * self.nnodes


def check_launch_options(options: LaunchOptions) -> None:
    """Raise LaunchOptionError for a value no machine could use (device-independent checks)."""
    if options.nproc is not None and options.nproc < 1:
        raise LaunchOptionError(f"--nproc must be a positive number of processes per node, got {options.nproc}")
    if options.nnodes < 1:
        raise LaunchOptionError(f"--nnodes must be a positive number of nodes, got {options.nnodes}")
    if options.node_rank is not None and not 0 <= options.node_rank < options.nnodes:
        raise LaunchOptionError(
            f"--node-rank must be between 0 and --nnodes - 1 ({options.nnodes - 1}), got {options.node_rank}"
        )
    if options.rdzv_endpoint is not None:
        check_endpoint(options.rdzv_endpoint)
    elif options.nnodes > 1:
        raise LaunchOptionError(f"--nnodes {options.nnodes} needs --rdzv-endpoint HOST:PORT (every node reaches it)")
    if options.rdzv_id is not None and not _RDZV_ID.match(options.rdzv_id):
        raise LaunchOptionError(f"--rdzv-id must be letters, digits, '_', '.' or '-', got {options.rdzv_id!r}")


def check_endpoint(endpoint: str) -> None:
    """HOST:PORT with a port in 1-65535 (an IPv6 host in brackets: [::1]:29500)."""
    host, separator, port = endpoint.rpartition(":")
    if not separator or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise LaunchOptionError(f"--rdzv-endpoint must be HOST:PORT with a port in 1-65535, got {endpoint!r}")


def launch_from_options(values: Mapping[str, OptionValue] | None, device: str) -> ResolvedLaunch:
    """The launch for run_probes' scaling options on `device`; LaunchOptionError for anything that cannot run."""
    try:
        options = validate_options(LaunchOptions, "scaling", values or {})
    except ProbeOptionsError as error:
        raise LaunchOptionError(str(error)) from None
    assert isinstance(options, LaunchOptions)
    return resolve_launch(options, device)


def resolve_launch(options: LaunchOptions, device: str) -> ResolvedLaunch:
    """The process count and backend for `device` ('cpu', 'cuda:0', 'npu:0'); raise on a count that cannot run."""
    check_launch_options(options)
    kind, _ = parse_device(device)
    available = _device_slots(kind)
    default = min(DEFAULT_CPU_PROCESSES, available) if kind == "cpu" else available
    nproc = options.nproc if options.nproc is not None else default
    if nproc > available:
        what = (
            f"{available} CPU cores here: each gloo process needs a core"
            if kind == "cpu"
            else (f"{available} {kind} device(s) on this node: one process per device")
        )
        raise LaunchOptionError(f"--nproc {nproc} exceeds the {what}")
    return ResolvedLaunch(
        nproc=nproc,
        nnodes=options.nnodes,
        node_rank=options.node_rank,
        rdzv_endpoint=options.rdzv_endpoint,
        rdzv_id=options.rdzv_id or "advisor-scaling",
        backend=BACKENDS[kind],
        device_kind=kind,
        library=collective_library(kind, _hip_version(kind)),
    )


def collective_library(kind: DeviceKind, hip_version: str | None) -> str:
    """The library doing the collectives, when it is not the backend's namesake: a ROCm build of torch
    runs its "nccl" backend on RCCL. Empty otherwise (gloo, NCCL, HCCL)."""
    return "rccl" if kind == "cuda" and hip_version else ""


def _hip_version(kind: DeviceKind) -> str | None:
    if kind != "cuda":
        return None
    import torch

    return torch.version.hip


def _device_slots(kind: DeviceKind) -> int:
    """How many processes this node can run: its cores on a CPU, its devices on an accelerator."""
    if kind == "cpu":
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    backend = accelerator_backend(kind)
    return int(backend.device_count()) if backend is not None else 0
