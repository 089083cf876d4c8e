"""The scaling probe's declaration: all-reduce bus bandwidth over message sizes, strong scaling of a
data-parallel training step from 1 to N processes, and DDP's compute/communication overlap.

Its cases are measured by N processes that torchrun starts (session.py in the parent, worker.py in
each process), not by the harness' single-process worker: `probes.runner` gives this probe a
DistributedSession. The declaration and implementations here serve discovery (`advisor probe
--list`) and the registry; if the single-process worker is ever asked to run them, each case is
skipped with the reason. Pairing by shape alone, the declaration may list more cases than a
launch runs (ddp.no_overlap runs at the largest world only).
"""

from __future__ import annotations

from probes.harness.device import Device
from probes.models import HarnessSettings
from probes.registry import Bench, CaseSpec, Probe, Unsupported, implementation
from probes.scaling.options import LaunchOptions, resolve_launch
from probes.scaling.plan import plan_scaling

LAUNCHED_ONLY = "measured by torchrun processes: run `advisor probe scaling` (see probes/scaling/session.py)"


def scaling_cases(device: Device, share_s: float, options: LaunchOptions) -> list[CaseSpec]:
    """The cases a launch with these options would plan on this device for share_s seconds."""
    plan = plan_scaling(resolve_launch(options, device.name), share_s, HarnessSettings())
    return [
        CaseSpec(dtype=case.key.dtype, shape=case.key.shape, layout=case.key.layout, options=case.key.options)
        for case in plan.cases
    ]


PROBE = Probe(
    name="scaling",
    description="Multi-process scaling: all-reduce bus bandwidth, DDP strong scaling 1 -> N, overlap (torchrun)",
    cases=scaling_cases,
    options=LaunchOptions,
    # Named only: it needs a process count, and takes cores or devices the others do not.
    runs_by_default=False,
    distributed=True,
)


def _message(case: CaseSpec) -> bool:
    return "bytes" in case.shape


def _training(case: CaseSpec) -> bool:
    return "batch" in case.shape


@implementation("all_reduce", supports=_message)
def all_reduce(case: CaseSpec, device: Device) -> Bench:
    raise Unsupported(LAUNCHED_ONLY)


@implementation("ddp.step", baseline=True, supports=_training)
def ddp_step(case: CaseSpec, device: Device) -> Bench:
    raise Unsupported(LAUNCHED_ONLY)


@implementation("ddp.no_overlap", supports=_training)
def ddp_no_overlap(case: CaseSpec, device: Device) -> Bench:
    raise Unsupported(LAUNCHED_ONLY)
