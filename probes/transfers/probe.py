"""The transfers probe: host<->device copy bandwidth, pageable vs pinned host memory, and what a pipeline
of copy in, compute and copy out on three streams gains over running the same work serially.

Accelerators only: on a CPU every case is skipped ("no accelerator: ..."). The harness times each
call with device events, so asynchronous (non_blocking) copies from pinned memory are timed in full.
"""

from __future__ import annotations

import torch

from probes.harness.device import Device
from probes.registry import Bench, CaseSpec, Probe, implementation
from probes.transfers.pipeline import PipelineBuffers, ThreeStreamPipeline, backend_of, run_serial
from probes.transfers.sizing import ROUND_TRIP, transfer_cases


def _transfer_cases(device: Device, share_s: float) -> list[CaseSpec]:
    return transfer_cases(share_s)


PROBE = Probe(
    name="transfers",
    description="Host-device transfers: H2D/D2H pageable vs pinned, copy/compute/copy pipeline on 3 streams",
    cases=_transfer_cases,
)


def _copy(case: CaseSpec) -> bool:
    return case.options.get("transfer") in ("h2d", "d2h")


def _round_trip(case: CaseSpec) -> bool:
    return case.options.get("transfer") == ROUND_TRIP


def copy_bench(case: CaseSpec, device: Device, *, pinned: bool) -> Bench:
    """One copy of case.shape['bytes'] in the case's direction; pinned copies are asynchronous (non_blocking)."""
    backend_of(device)  # Unsupported on a CPU
    elements = case.shape["bytes"] // 4
    host = torch.randn(elements, generator=torch.Generator().manual_seed(elements))
    host = host.pin_memory() if pinned else host
    on_device = torch.empty(elements, device=device.torch_device)
    if case.options["transfer"] == "h2d":
        return Bench(run=lambda: on_device.copy_(host, non_blocking=pinned), reference=lambda: host)
    on_device.copy_(host)
    host_out = torch.empty(elements, pin_memory=pinned)
    return Bench(run=lambda: host_out.copy_(on_device, non_blocking=pinned), reference=lambda: on_device)


@implementation("pageable", baseline=True, supports=_copy)
def pageable(case: CaseSpec, device: Device) -> Bench:
    return copy_bench(case, device, pinned=False)


@implementation("pinned", supports=_copy)
def pinned(case: CaseSpec, device: Device) -> Bench:
    return copy_bench(case, device, pinned=True)


@implementation("serial", baseline=True, supports=_round_trip)
def serial(case: CaseSpec, device: Device) -> Bench:
    backend_of(device)
    buffers = PipelineBuffers.build(case, device)
    return Bench(run=lambda: run_serial(buffers), reference=buffers.reference)


@implementation("pipelined", supports=_round_trip)
def pipelined(case: CaseSpec, device: Device) -> Bench:
    pipeline = ThreeStreamPipeline(backend_of(device), PipelineBuffers.build(case, device))
    return Bench(run=pipeline.run, reference=pipeline.buffers.reference)
