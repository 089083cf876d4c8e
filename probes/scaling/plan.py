"""The scaling probe's plan: message sizes and world sizes that fit the share, each case with its CaseKey.

Made in the parent without importing torch and written to the job file; rank 0's copy is broadcast
to every process, so all of them run the same collectives in the same order.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from probes.harness.device_choice import DeviceKind
from probes.models import CaseKey, HarnessSettings
from probes.scaling.options import ResolvedLaunch

PROBE_NAME = "scaling"
KiB, MiB = 1024, 1024**2
MESSAGE_BYTES: dict[DeviceKind, tuple[int, ...]] = {
    "cpu": (4 * KiB, 64 * KiB, 1 * MiB, 16 * MiB, 64 * MiB),
    "cuda": tuple(4 * KiB * 4**power for power in range(10)),  # 4 KiB .. 1 GiB, as nccl-tests sweeps
    "npu": tuple(4 * KiB * 4**power for power in range(10)),
}
# torchrun, `import torch` in every process, process groups (and device contexts, communicators).
STARTUP_S: dict[DeviceKind, float] = {"cpu": 6.0, "cuda": 20.0, "npu": 30.0}
TEARDOWN_S = 2.0
# Assumed low on purpose, so a slow or busy machine still fits: bus bandwidth, latency, FLOP/s per process.
_ASSUMED_BUS_BYTES_PER_S: dict[DeviceKind, float] = {"cpu": 0.5e9, "cuda": 20e9, "npu": 20e9}
_ASSUMED_LATENCY_S: dict[DeviceKind, float] = {"cpu": 100e-6, "cuda": 50e-6, "npu": 100e-6}
_ASSUMED_FLOP_PER_S: dict[DeviceKind, float] = {"cpu": 30e9, "cuda": 10e12, "npu": 10e12}
WARMUP_CALLS = 2
CALIBRATION_CALLS = 3
CaseKind = Literal["all_reduce", "step", "no_overlap"]
IMPLEMENTATIONS: dict[CaseKind, str] = {"all_reduce": "all_reduce", "step": "ddp.step", "no_overlap": "ddp.no_overlap"}
NEEDS_TWO = "needs 2 or more processes (--nproc, --nnodes)"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReferenceModelSpec(_Model):
    """The probe's own small model: `blocks` pre-norm residual MLP blocks, trained on a fixed global batch."""

    width: int
    hidden: int
    blocks: int
    global_batch: int = Field(description="Rows per step across all processes: split evenly (strong scaling)")

    @property
    def parameters(self) -> int:
        """Weights and biases: a LayerNorm (2 x width) and two Linear layers per block."""
        return self.blocks * (2 * self.width + 2 * self.width * self.hidden + self.hidden + self.width)

    @property
    def step_flops(self) -> float:
        """Forward and backward of the whole global batch: about 6 FLOP per parameter per row."""
        return 6.0 * self.parameters * self.global_batch


class PlannedCase(_Model):
    """One case of the plan: what to run, on how many processes, and its least cost in seconds."""

    kind: CaseKind
    key: CaseKey
    world: int = Field(description="Processes taking part (ranks 0 .. world-1); the others wait")
    message_bytes: int | None = None
    skip_reason: str | None = None
    min_seconds: float = Field(default=0.0, description="Estimated cost of warmup, calibration and min samples")


class ScalingPlan(_Model):
    """Every case, in the order the processes run them."""

    backend: str
    device_kind: DeviceKind
    world: int
    nodes: int
    model: ReferenceModelSpec
    cases: list[PlannedCase]

    @property
    def startup_s(self) -> float:
        """Estimated seconds before the first case can start."""
        return STARTUP_S[self.device_kind]

    @property
    def needed_s(self) -> float:
        """The least share that runs every case: start-up, each case's least cost, teardown."""
        return self.startup_s + TEARDOWN_S + sum(case.min_seconds for case in self.cases if case.skip_reason is None)


class ScalingJob(_Model):
    """What the parent writes for its node's processes (see worker.py)."""

    plan: ScalingPlan
    settings: HarnessSettings
    deadline_unix: float = Field(description="time.time() by which rank 0 should have reported every case")
    expires_unix: float = Field(description="time.time() past which a process exits on its own (orphan guard)")
    collective_timeout_s: float = Field(description="A collective waiting this long on a dead peer raises")


def reference_model(kind: DeviceKind, world_sizes: list[int]) -> ReferenceModelSpec:
    """A small MLP on a CPU, a larger one on accelerators; the batch divides evenly by every world size."""
    if kind == "cpu":
        width, blocks, batch = 256, 2, 512
    else:
        width, blocks, batch = 1024, 4, 4096
    multiple = math.lcm(*world_sizes)
    global_batch = math.ceil(batch / multiple) * multiple
    return ReferenceModelSpec(width=width, hidden=4 * width, blocks=blocks, global_batch=global_batch)


def world_sizes(world: int) -> list[int]:
    """1, 2, 4, ... below `world`, then `world` itself."""
    sizes = [1]
    while sizes[-1] * 2 < world:
        sizes.append(sizes[-1] * 2)
    return sizes + ([world] if world > 1 else [])


def case_key(kind: CaseKind, launch: ResolvedLaunch, world: int, shape: dict[str, int]) -> CaseKey:
    """The CaseKey of one scaling case: options name the backend, nodes and processes taking part."""
    return CaseKey(
        probe=PROBE_NAME,
        implementation=IMPLEMENTATIONS[kind],
        dtype="fp32",
        shape=shape,
        device=launch.device_kind,
        options={
            "backend": launch.backend,
            "nodes": launch.nnodes,
            "world": world,
            **({"library": launch.library} if launch.library else {}),
        },
    )


def all_reduce_call_s(kind: DeviceKind, message_bytes: int) -> float:
    """Assumed seconds of one all-reduce: latency plus twice the message over the bus (ring algorithm)."""
    return _ASSUMED_LATENCY_S[kind] + 2.0 * message_bytes / _ASSUMED_BUS_BYTES_PER_S[kind]


def step_s(kind: DeviceKind, model: ReferenceModelSpec, world: int) -> float:
    """Assumed seconds of one training step on `world` processes: compute of a 1/world slice, gradient all-reduce."""
    compute = model.step_flops / world / _ASSUMED_FLOP_PER_S[kind]
    return compute + (all_reduce_call_s(kind, 4 * model.parameters) if world > 1 else 0.0)


def least_cost_s(call_s: float, settings: HarnessSettings) -> float:
    """Warmup, calibration and the minimum number of samples of a call lasting call_s."""
    return (WARMUP_CALLS + CALIBRATION_CALLS + settings.min_samples) * max(call_s, settings.min_sample_s)


def plan_scaling(launch: ResolvedLaunch, share_s: float, settings: HarnessSettings) -> ScalingPlan:
    """Message sizes (the largest dropped until the least costs fit share_s), then strong scaling, then overlap."""
    kind, world = launch.device_kind, launch.world
    sizes = list(MESSAGE_BYTES[kind])
    worlds = world_sizes(world)
    model = reference_model(kind, worlds)
    while True:
        plan = _plan(launch, sizes, worlds, model, settings)
        if plan.needed_s <= share_s or len(sizes) <= 2:
            return plan
        sizes.pop()


def _plan(
    launch: ResolvedLaunch, sizes: list[int], worlds: list[int], model: ReferenceModelSpec, settings: HarnessSettings
) -> ScalingPlan:
    kind, world = launch.device_kind, launch.world
    skip = NEEDS_TWO if world < 2 else None
    cases = [
        PlannedCase(
            kind="all_reduce",
            key=case_key("all_reduce", launch, world, {"bytes": size}),
            world=world,
            message_bytes=size,
            skip_reason=skip,
            min_seconds=least_cost_s(all_reduce_call_s(kind, size), settings),
        )
        for size in sizes
    ]
    shape = {"batch": model.global_batch, "width": model.width, "blocks": model.blocks}
    for processes in worlds:
        cost = least_cost_s(step_s(kind, model, processes), settings)
        key = case_key("step", launch, processes, shape)
        cases.append(PlannedCase(kind="step", key=key, world=processes, min_seconds=cost))
    cost = least_cost_s(step_s(kind, model, world) * 1.5, settings)
    cases.append(
        PlannedCase(
            kind="no_overlap",
            key=case_key("no_overlap", launch, world, shape),
            world=world,
            skip_reason=skip,
            min_seconds=cost,
        )
    )
    return ScalingPlan(
        backend=launch.backend, device_kind=kind, world=world, nodes=launch.nnodes, model=model, cases=cases
    )
