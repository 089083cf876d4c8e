"""Timing a call that several processes run together: the same sample count everywhere, the slowest rank's time.

Every rank calls `time_together` for every case, also the ranks that sit a case out (run=None): the
sample count is agreed from the slowest rank's calibration, and each sample's time is the maximum
over ranks, as nccl-tests reports it. The agreement travels on `control`, a gloo group, so idle
ranks wait on the host and never queue work on an accelerator.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.distributed as dist

from probes.models import HarnessSettings
from probes.scaling.plan import CALIBRATION_CALLS, WARMUP_CALLS

# On accelerators a sample lasts at least this long, so the host synchronize per sample stays a small part of it.
DEVICE_MIN_SAMPLE_S = 1e-3


@dataclass(frozen=True)
class TimedRun:
    """Seconds per call for each sample (max over ranks), as every rank agreed to take them."""

    samples: list[float]
    calls_per_sample: int
    warmup_calls: int


def agree_max(values: list[float], control: dist.ProcessGroup | None) -> list[float]:
    """Elementwise maximum of `values` over every rank of `control` (float64 on the host)."""
    tensor = torch.tensor(values, dtype=torch.float64)
    dist.all_reduce(tensor, op=dist.ReduceOp.MAX, group=control)
    return [float(value) for value in tensor.tolist()]


def _seconds_per_call(run: Callable[[], object], synchronize: Callable[[], None], calls: int) -> float:
    synchronize()
    start = time.perf_counter()
    for _ in range(calls):
        run()
    synchronize()
    return (time.perf_counter() - start) / calls


def sample_plan(call_s: float, case_s: float, settings: HarnessSettings, min_sample_s: float) -> tuple[int, int]:
    """(calls per sample, samples): each sample lasts >= min_sample_s; as many as fit 80% of case_s, within bounds."""
    call_s = max(call_s, 1e-9)
    calls = max(1, math.ceil(min_sample_s / call_s))
    fitting = int(0.8 * case_s / (call_s * calls))
    return calls, min(settings.max_samples, max(settings.min_samples, fitting))


def time_together(
    run: Callable[[], object] | None,
    synchronize: Callable[[], None],
    *,
    case_s: float,
    settings: HarnessSettings,
    min_sample_s: float,
    control: dist.ProcessGroup | None,
) -> TimedRun:
    """Warm up, calibrate, agree on the sample count, time; `run` is None on a rank that sits this case out."""
    if run is not None:
        for _ in range(WARMUP_CALLS):
            run()
        estimate = _seconds_per_call(run, synchronize, CALIBRATION_CALLS)
    else:
        estimate = 0.0
    # Rank 0's case_s decides (it alone knows the deadline); the others pass 0.
    call_s, agreed_case_s = agree_max([estimate, case_s if dist.get_rank() == 0 else 0.0], control)
    calls, samples = sample_plan(call_s, agreed_case_s, settings, min_sample_s)
    dist.barrier(group=control)
    times = [_seconds_per_call(run, synchronize, calls) if run is not None else 0.0 for _ in range(samples)]
    return TimedRun(agree_max(times, control), calls, WARMUP_CALLS + CALIBRATION_CALLS)
