"""Copy in, compute, copy out: chunk by chunk on one stream (serial), or overlapped on three streams (pipelined).

Device-generic through the backend module (torch.cuda, or torch.npu, which mirrors its Stream,
Event, current_stream and stream() API). Host buffers are pinned: only pinned memory copies
asynchronously, so only then can a copy overlap a kernel.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import torch

from probes.harness.device import Device
from probes.harness.device_choice import accelerator_backend
from probes.registry import CaseSpec, Unsupported
from probes.transfers.sizing import chunk_rows

NO_ACCELERATOR = "no accelerator: host-device transfers need cuda or npu"
_SEED = 7


def backend_of(device: Device) -> ModuleType:
    """torch.cuda or torch.npu for `device`; Unsupported on a CPU, where there is no host-device link."""
    backend = accelerator_backend(device.kind) if device.kind != "cpu" else None
    if backend is None:
        raise Unsupported(NO_ACCELERATOR)
    return backend


@dataclass
class PipelineBuffers:
    """Pinned host input and output, per-chunk device buffers, and the weight every chunk is multiplied by."""

    host_in: list[torch.Tensor]
    host_out: list[torch.Tensor]
    device_in: list[torch.Tensor]
    device_out: list[torch.Tensor]
    weight: torch.Tensor
    output: torch.Tensor  # host_out as one tensor: what the harness checks

    @classmethod
    def build(cls, case: CaseSpec, device: Device, *, pin: bool = True) -> PipelineBuffers:
        """Inputs of order one, a weight scaled by 1/sqrt(width) so outputs stay of order one.

        `pin`: page-locked host buffers (the point of the pipeline; needs an accelerator runtime).
        """
        rows, chunks, width = chunk_rows(case), case.shape["chunks"], case.shape["width"]
        generator = torch.Generator().manual_seed(_SEED)
        host_in = torch.randn(chunks, rows, width, generator=generator)
        weight = (torch.randn(width, width, generator=generator) / width**0.5).to(device.torch_device)
        output = torch.empty(chunks, rows, width)
        host_in, output = (host_in.pin_memory(), output.pin_memory()) if pin else (host_in, output)
        return cls(
            host_in=list(host_in.unbind(0)),
            host_out=list(output.unbind(0)),
            device_in=[torch.empty(rows, width, device=device.torch_device) for _ in range(chunks)],
            device_out=[torch.empty(rows, width, device=device.torch_device) for _ in range(chunks)],
            weight=weight,
            output=output,
        )

    def reference(self) -> torch.Tensor:
        """float64 on the device (a CPU would take seconds for this matmul), same inputs."""
        inputs = torch.stack(self.host_in).to(self.weight.device, torch.float64)
        return inputs @ self.weight.double()


def run_serial(buffers: PipelineBuffers) -> torch.Tensor:
    """Every chunk's copy in, matmul and copy out, in order on the current stream: nothing overlaps."""
    for index in range(len(buffers.host_in)):
        buffers.device_in[index].copy_(buffers.host_in[index], non_blocking=True)
        torch.matmul(buffers.device_in[index], buffers.weight, out=buffers.device_out[index])
        buffers.host_out[index].copy_(buffers.device_out[index], non_blocking=True)
    return buffers.output


class ThreeStreamPipeline:
    """Copy-in, compute and copy-out streams; chunk i's matmul waits for its copy in, its copy out for its matmul."""

    def __init__(self, backend: ModuleType, buffers: PipelineBuffers) -> None:
        self.backend, self.buffers = backend, buffers
        self.copy_in, self.compute, self.copy_out = backend.Stream(), backend.Stream(), backend.Stream()

    def run(self) -> torch.Tensor:
        """One pass over every chunk; the current stream waits for the last copy out, so its events time the whole."""
        backend, buffers = self.backend, self.buffers
        current = backend.current_stream()
        for stream in (self.copy_in, self.compute, self.copy_out):
            stream.wait_stream(current)  # after the previous pass (and anything else queued before this one)
        for index in range(len(buffers.host_in)):
            copied, computed = backend.Event(), backend.Event()
            with backend.stream(self.copy_in):
                buffers.device_in[index].copy_(buffers.host_in[index], non_blocking=True)
                copied.record()
            with backend.stream(self.compute):
                self.compute.wait_event(copied)
                torch.matmul(buffers.device_in[index], buffers.weight, out=buffers.device_out[index])
                computed.record()
            with backend.stream(self.copy_out):
                self.copy_out.wait_event(computed)
                buffers.host_out[index].copy_(buffers.device_out[index], non_blocking=True)
        current.wait_stream(self.copy_out)
        return buffers.output
