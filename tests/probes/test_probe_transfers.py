"""The transfers probe on a CPU: every case planned and skipped with the reason; its sizing, pairing and the
three-stream pipeline's ordering (driven through a stand-in for torch.cuda's stream API)."""

from __future__ import annotations

from contextlib import contextmanager
from types import SimpleNamespace

import pytest
import torch

from probes.harness.device import Device
from probes.harness.numerics import compare
from probes.models import CaseKey, Measurement, Metric, ProbeCase
from probes.registry import CaseSpec, Unsupported, load_probe
from probes.reporting import probe_findings
from probes.runner import run_probes, select_probes
from probes.tolerance import tolerance_for
from probes.transfers.pipeline import NO_ACCELERATOR, PipelineBuffers, ThreeStreamPipeline, backend_of, run_serial
from probes.transfers.probe import copy_bench
from probes.transfers.report import paired, transfer_lines
from probes.transfers.sizing import COPY_BYTES, PIPELINE_BYTES, ROUND_TRIP, chunk_rows, copy_sizes, transfer_cases


def test_on_a_cpu_every_case_is_skipped_with_the_reason():
    evidence = run_probes(["transfers"], budget_s=8, device="cpu")
    (run,) = evidence.probe_runs
    assert run.status == "ok"
    implementations = {case.key.implementation for case in evidence.cases}
    assert implementations == {"pageable", "pinned", "serial", "pipelined"}
    assert all(case.status == "skipped" and case.reason == f"unsupported: {NO_ACCELERATOR}" for case in evidence.cases)
    assert "transfers/pinned/fp32/bytes=65536/default/cpu/transfer=h2d" in {case.key.case_id for case in evidence.cases}
    assert probe_findings("transfers", evidence.cases) == [f"skipped: unsupported: {NO_ACCELERATOR}"]


def test_transfers_is_in_the_default_suite_and_declares_four_implementations():
    assert "transfers" in select_probes(None)
    assert [registered.name for registered in load_probe("transfers").implementations] == [
        "pageable",
        "pinned",
        "serial",
        "pipelined",
    ]


def test_builders_refuse_a_cpu_before_touching_pinned_memory():
    case = CaseSpec(dtype="fp32", shape={"bytes": 4096}, options={"transfer": "h2d"})
    with pytest.raises(Unsupported, match=NO_ACCELERATOR):
        copy_bench(case, Device(), pinned=True)
    with pytest.raises(Unsupported, match=NO_ACCELERATOR):
        backend_of(Device())


def test_sizing_drops_the_largest_copies_first_and_keeps_the_pipeline():
    assert copy_sizes(1e6) == list(COPY_BYTES)
    assert copy_sizes(0.0) == [COPY_BYTES[0]]
    short, roomy = transfer_cases(0.0), transfer_cases(1e6)
    assert len(roomy) == 2 * len(COPY_BYTES) + 1 and len(short) == 3
    pipeline = roomy[-1]
    assert pipeline.options == {"transfer": ROUND_TRIP} and pipeline.bytes_moved == 2 * PIPELINE_BYTES
    assert chunk_rows(pipeline) * pipeline.shape["chunks"] * pipeline.shape["width"] * 4 == PIPELINE_BYTES
    with pytest.raises(ValueError, match="do not split"):
        chunk_rows(CaseSpec(dtype="fp32", shape={"bytes": 1000, "chunks": 3, "width": 8}))


def _timed(implementation: str, options: dict[str, str], seconds: float, size: int = 2**20) -> ProbeCase:
    key = CaseKey(
        probe="transfers",
        implementation=implementation,
        dtype="fp32",
        shape={"bytes": size},
        device="cuda",
        options=options,
    )
    timing = Measurement.from_samples([seconds] * 10, stop_reason="converged")
    metrics = {"gbps": Metric(value=size / seconds / 1e9, unit="GB/s")}
    return ProbeCase(key=key, status="ok", timing=timing, metrics=metrics)


def test_pinned_is_paired_with_pageable_and_pipelined_with_serial():
    cases = [
        _timed("pageable", {"transfer": "h2d"}, 2e-4),
        _timed("pinned", {"transfer": "h2d"}, 1e-4),
        _timed("pinned", {"transfer": "d2h"}, 1e-4),  # no pageable partner: not paired
        _timed("serial", {"transfer": ROUND_TRIP}, 3e-3),
        _timed("pipelined", {"transfer": ROUND_TRIP}, 2e-3),
    ]
    (pair,) = paired(cases, "pageable", "pinned")
    assert pair.label == "h2d 1 MiB" and pair.gain == pytest.approx(2.0)
    assert transfer_lines(cases) == [
        "h2d 1 MiB: pinned 10.5 GB/s vs pageable 5.24 GB/s (2.00x)",
        "round-trip 1 MiB copy in, matmul, copy out: 3-stream pipeline 1.50x faster than serial (the overlap gained)",
    ]


class _RecordingBackend:
    """torch.cuda's stream API on a CPU: work runs at once; the log keeps which stream ran what, in order."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.active = "current"
        self._default = self.Stream("current")

    def Stream(self, name: str = "stream") -> SimpleNamespace:  # noqa: N802 - mirrors torch.cuda.Stream
        stream = SimpleNamespace(name=name)
        stream.wait_stream = lambda other: self.log.append(f"{stream.name} waits {other.name}")
        stream.wait_event = lambda event: self.log.append(f"{stream.name} waits {event.name}")
        return stream

    def Event(self) -> SimpleNamespace:  # noqa: N802 - mirrors torch.cuda.Event
        event = SimpleNamespace(name="event")

        def record() -> None:
            event.name = f"event@{self.active}"
            self.log.append(f"record on {self.active}")

        event.record = record
        return event

    def current_stream(self) -> SimpleNamespace:
        return self._default

    @contextmanager
    def stream(self, stream: SimpleNamespace):
        previous, self.active = self.active, stream.name
        try:
            yield
        finally:
            self.active = previous


def test_the_pipeline_orders_each_chunk_across_three_streams_and_matches_serial():
    case = CaseSpec(dtype="fp32", shape={"bytes": 3 * 16 * 8 * 4, "chunks": 3, "width": 8})
    backend = _RecordingBackend()
    pipeline = ThreeStreamPipeline(backend, PipelineBuffers.build(case, Device(), pin=False))
    for name, stream in zip(("in", "compute", "out"), (pipeline.copy_in, pipeline.compute, pipeline.copy_out)):
        stream.name = name
    result = pipeline.run().clone()
    assert backend.log[:3] == ["in waits current", "compute waits current", "out waits current"]
    assert backend.log[3:6] == ["record on in", "compute waits event@in", "record on compute"]
    assert backend.log[6] == "out waits event@compute" and backend.log[-1] == "current waits out"
    tolerance = tolerance_for("fp32", None)
    assert compare(result, pipeline.buffers.reference(), tolerance).passed
    serial = run_serial(PipelineBuffers.build(case, Device(), pin=False))
    assert torch.equal(result, serial)
