"""One process of the scaling probe, started by torchrun: `python -m probes.scaling.worker JOB_FILE FOLDER`.

Every rank runs every case, in plan order (ranks a case does not use wait for it); rank 0 reports
each case as it ends (report.py). A Python error leaves one line in FOLDER/error-rank<R>.txt and
exits 1: torchrun then stops the other ranks and the parent reports the failure. A process still
alive past the job's expiry exits on its own (faulthandler's watchdog needs no GIL).
"""

from __future__ import annotations

import faulthandler
import os
import sys
import time
import traceback
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import torch
import torch.distributed as dist
from pydantic import BaseModel

from probes.harness.device_choice import DeviceKind, accelerator_backend
from probes.harness.measure import describe_exception
from probes.harness.protocol import CaseResultMessage, CaseStartMessage, DoneMessage
from probes.models import HarnessSettings, Measurement, Metric, ProbeCase
from probes.scaling.faults import inject_fault
from probes.scaling.plan import PlannedCase, ScalingJob, ScalingPlan
from probes.scaling.report import all_reduce_metrics, overlap_metrics, step_metrics
from probes.scaling.results_file import RESULTS_FILE, ResultsWriter, error_path, pid_path
from probes.scaling.timing import DEVICE_MIN_SAMPLE_S, TimedRun, time_together
from probes.scaling.training import training_step

NO_REFERENCE = {
    "all_reduce": "no float64 reference: the sum is checked exactly once before timing",
    "step": "no float64 reference: a timing of training steps",
    "no_overlap": "no float64 reference: a timing of training steps",
}


def open_local_device(kind: DeviceKind, local_rank: int) -> tuple[torch.device, Callable[[], None]]:
    """This process's device (accelerator number LOCAL_RANK) and how to wait for its queued work."""
    if kind == "cpu":
        return torch.device("cpu"), lambda: None
    backend = accelerator_backend(kind)
    if backend is None:
        raise RuntimeError(f"no {kind} support in this torch installation")
    backend.set_device(local_rank)
    return torch.device(kind, local_rank), lambda: backend.synchronize(local_rank)


def agree_on_job(job: ScalingJob, control: dist.ProcessGroup | None) -> ScalingJob:
    """This rank's job with rank 0's plan and settings: nodes sized their plans at slightly different times,
    and every rank must run the same collectives and sample counts. Deadlines stay local (rank 0's decide).
    """
    carried: list[object] = [job.plan.model_dump_json(), job.settings.model_dump_json()]
    dist.broadcast_object_list(carried, src=0, group=control)
    plan = ScalingPlan.model_validate_json(str(carried[0]))
    return job.model_copy(update={"plan": plan, "settings": HarnessSettings.model_validate_json(str(carried[1]))})


class CaseRunner:
    """Runs the plan's cases on this rank; on rank 0 also shares out the time and reports the results."""

    def __init__(
        self,
        job: ScalingJob,
        device: torch.device,
        synchronize: Callable[[], None],
        control: dist.ProcessGroup | None,
        writer: ResultsWriter | None,
    ) -> None:
        plan = job.plan
        self.job, self.plan, self.device, self.synchronize = job, plan, device, synchronize
        self.control, self.writer = control, writer
        self.rank = dist.get_rank()
        worlds = sorted({case.world for case in plan.cases if case.skip_reason is None})
        # Every rank creates every group, in the same order, as new_group requires.
        self.groups = {world: dist.new_group(list(range(world))) for world in worlds if 1 < world < plan.world}
        self.step_medians: dict[int, float] = {}
        self.min_sample_s = job.settings.min_sample_s if plan.device_kind == "cpu" else DEVICE_MIN_SAMPLE_S

    def run_all(self) -> None:
        """Every case in plan order, then "done"."""
        fault_pending = True
        for index, case in enumerate(self.plan.cases):
            if case.skip_reason is not None:
                self._send(CaseResultMessage(case=ProbeCase(key=case.key, status="skipped", reason=case.skip_reason)))
                continue
            case_s = self._share(self.plan.cases[index:]) if self.rank == 0 else 0.0
            began = time.monotonic()
            grace = self.job.settings.case_grace_s + 0.25 * case_s
            self._send(CaseStartMessage(case_id=case.key.case_id, hang_deadline=began + case_s + grace))
            if fault_pending:
                inject_fault(self.rank)
                fault_pending = False
            timed = self._measure(case, case_s)
            if self.rank == 0:
                self._send(CaseResultMessage(case=self._result(case, timed, time.monotonic() - began)))
        self._send(DoneMessage())

    def _share(self, left: list[PlannedCase]) -> float:
        """This case's least cost plus an equal part of the time no remaining case needs."""
        runnable = [case for case in left if case.skip_reason is None]
        spare = self.job.deadline_unix - time.time() - sum(case.min_seconds for case in runnable)
        return runnable[0].min_seconds + max(0.0, spare) / len(runnable)

    def _measure(self, case: PlannedCase, case_s: float) -> TimedRun:
        run: Callable[[], object] | None = None
        if case.kind == "all_reduce":
            run = self._all_reduce(case.message_bytes or 0)
        elif self.rank < case.world:
            run = training_step(
                self.plan.model,
                self.device,
                world=case.world,
                rank=self.rank,
                group=self.groups.get(case.world),
                overlap=case.kind == "step",
            )
        return time_together(
            run,
            self.synchronize,
            case_s=case_s,
            settings=self.job.settings,
            min_sample_s=self.min_sample_s,
            control=self.control,
        )

    def _all_reduce(self, message_bytes: int) -> Callable[[], object]:
        """A sum all-reduce over every rank, checked once; the timed calls reduce zeros (no overflow, no denormals)."""
        tensor = torch.full((message_bytes // 4,), float(self.rank + 1), device=self.device)
        dist.all_reduce(tensor)
        world = dist.get_world_size()
        expected = world * (world + 1) / 2
        if not bool((tensor == expected).all()):
            raise RuntimeError(f"all-reduce of {message_bytes} bytes returned a wrong sum (expected {expected:g})")
        tensor.zero_()
        return lambda: dist.all_reduce(tensor)

    def _result(self, case: PlannedCase, timed: TimedRun, wall_s: float) -> ProbeCase:
        settings = self.job.settings
        timing = Measurement.from_samples(
            timed.samples,
            stop_reason="share spent",
            calls_per_sample=timed.calls_per_sample,
            warmup_calls=timed.warmup_calls,
            confidence=settings.confidence,
            noise_threshold=settings.noise_threshold,
        )
        return ProbeCase(
            key=case.key,
            status="ok",
            timing=timing,
            metrics=self._metrics(case, timing.stats.median),
            baseline=case.kind == "step",
            wall_s=wall_s,
            reason=NO_REFERENCE[case.kind],
        )

    def _metrics(self, case: PlannedCase, median: float) -> dict[str, Metric]:
        if case.kind == "all_reduce":
            return all_reduce_metrics(case.message_bytes or 0, median, case.world)
        if case.kind == "no_overlap":
            overlapped = self.step_medians.get(case.world)
            return overlap_metrics(median, overlapped) if overlapped else {}
        self.step_medians[case.world] = median
        return step_metrics(
            world=case.world,
            seconds=median,
            serial_seconds=self.step_medians.get(1, median),
            global_batch=self.plan.model.global_batch,
            gradient_bytes=4 * self.plan.model.parameters,
            threads=torch.get_num_threads(),
        )

    def _send(self, message: BaseModel) -> None:
        if self.writer is not None:
            self.writer.send(message)


def run(job: ScalingJob, folder: Path) -> None:
    """Join the process group, agree on the plan, run every case, leave."""
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    device, synchronize = open_local_device(job.plan.device_kind, local_rank)
    dist.init_process_group(job.plan.backend, timeout=timedelta(seconds=job.collective_timeout_s))
    # Agreement and waiting go through gloo: host tensors, and idle ranks queue nothing on a device.
    control = dist.new_group(backend="gloo") if job.plan.backend != "gloo" else None
    job = agree_on_job(job, control)
    if dist.get_world_size() != job.plan.world:
        raise RuntimeError(f"planned for {job.plan.world} processes, torchrun started {dist.get_world_size()}")
    writer = ResultsWriter(folder / RESULTS_FILE) if dist.get_rank() == 0 else None
    CaseRunner(job, device, synchronize, control, writer).run_all()
    dist.barrier(group=control)
    dist.destroy_process_group()


def main(argv: list[str]) -> None:
    """Entry point; any error becomes one line in error-rank<R>.txt and exit code 1."""
    job_path, folder = Path(argv[0]), Path(argv[1])
    rank = int(os.environ.get("RANK", "0"))
    faulthandler.enable()  # a segfault leaves a Python traceback in torchrun's log
    pid_path(folder, rank).write_text(str(os.getpid()))
    code = 0
    try:
        job = ScalingJob.model_validate_json(job_path.read_text())
        faulthandler.dump_traceback_later(max(1.0, job.expires_unix - time.time()), exit=True)
        run(job, folder)
    except BaseException as error:  # noqa: BLE001 - every failure must reach the parent as one line
        traceback.print_exc()
        error_path(folder, rank).write_text(f"rank {rank}: {describe_exception(error)}\n")
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # skip the interpreter's slow teardown; torchrun only needs the exit code


if __name__ == "__main__":
    main(sys.argv[1:])
