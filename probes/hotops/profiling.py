"""Profile passes of a model with torch.profiler: each operator's self time per pass, grouped by concern.

Self time is an operator's own time, without the operators it calls, so the times add up to the
pass without double counting. On the CPU it is host time; on CUDA it is the device time of the kernels
each operator launched (idle gaps on the device are not counted: shares are of busy time).

Each pass is marked with a record_function range; every event is given to the pass whose range holds
its start (whatever thread ran it: CUDA backward runs in autograd's device thread). An operator's time is
its median over the passes, so one preempted pass on a busy host does not skew the shares.
"""

from __future__ import annotations

import functools
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch
from torch.autograd import DeviceType
from torch.profiler import ProfilerActivity, profile, record_function

from probes.harness.device import Device
from probes.hotops.groups import GROUPS, OperatorGroup, group_of
from probes.models import OperatorTime

TOP_OPERATORS = 10
PASS_MARKER = "hotops.pass"


@dataclass(frozen=True)
class PassProfile:
    """Every operator with self time in the profiled passes, slowest first, per pass."""

    operators: tuple[OperatorTime, ...]
    total_s: float  # self time of all operators, per pass (the sum of their medians)

    def top(self, count: int = TOP_OPERATORS) -> list[OperatorTime]:
        """The `count` operators with the most self time."""
        return list(self.operators[:count])

    def group_shares(self) -> dict[OperatorGroup, float]:
        """Share of the total self time per concern group; every group present, summing to 1."""
        shares: dict[OperatorGroup, float] = dict.fromkeys(GROUPS, 0.0)
        for operator in self.operators:
            shares[operator.group] += operator.share  # type: ignore[index]
        return shares


def _activities(device: Device) -> list[ProfilerActivity]:
    return [ProfilerActivity.CPU, ProfilerActivity.CUDA] if device.kind == "cuda" else [ProfilerActivity.CPU]


def _self_seconds(event: object, device: Device) -> float:
    if device.kind == "cuda":
        micros = getattr(event, "self_device_time_total", None)
        if micros is None:  # torch before 2.4
            micros = getattr(event, "self_cuda_time_total", 0.0)
        return float(micros or 0.0) / 1e6
    return float(getattr(event, "self_cpu_time_total", 0.0)) / 1e6


@functools.cache
def warm_profiler(device: Device) -> None:
    """Start the profiler once (kineto, and CUPTI on CUDA: a second or more), so no case pays for it."""
    with profile(activities=_activities(device)):
        torch.ones(8, device=device.torch_device).sum()
    device.synchronize()


def per_pass_seconds(events: Sequence[object], device: Device) -> list[dict[str, tuple[float, int]]]:
    """For each marked pass: operator name -> (self seconds, calls)."""
    ranges = sorted(
        (event.time_range.start, event.time_range.end)  # type: ignore[attr-defined]
        for event in events
        if getattr(event, "name", None) == PASS_MARKER
    )
    passes: list[dict[str, tuple[float, int]]] = [{} for _ in ranges]
    for event in events:
        # On CUDA the kernels are events too; their time is already the device time of the op that launched them.
        if event.name == PASS_MARKER or event.device_type != DeviceType.CPU:  # type: ignore[attr-defined]
            continue
        spent = _self_seconds(event, device)
        start = event.time_range.start  # type: ignore[attr-defined]
        index = next((i for i, (low, high) in enumerate(ranges) if low <= start <= high), None)
        if spent > 0 and index is not None:
            seconds, calls = passes[index].get(event.name, (0.0, 0))  # type: ignore[attr-defined]
            passes[index][event.name] = (seconds + spent, calls + 1)  # type: ignore[attr-defined]
    return passes


def summarize(passes: Sequence[dict[str, tuple[float, int]]]) -> PassProfile:
    """Median self time and calls per operator over the passes (0 in a pass it did not run in), ranked."""
    names = sorted({name for measured in passes for name in measured})
    medians: dict[str, tuple[float, float]] = {}
    for name in names:
        seconds = [measured.get(name, (0.0, 0))[0] for measured in passes]
        calls = [measured.get(name, (0.0, 0))[1] for measured in passes]
        medians[name] = (statistics.median(seconds), statistics.median(calls))
    total = sum(seconds for seconds, _ in medians.values())
    ranked = sorted((name for name in names if medians[name][0] > 0), key=lambda name: (-medians[name][0], name))
    operators = tuple(
        OperatorTime(
            name=name,
            group=group_of(name),
            self_s=medians[name][0],
            share=medians[name][0] / total if total > 0 else 0.0,
            calls=medians[name][1],
        )
        for name in ranked
    )
    return PassProfile(operators=operators, total_s=total)


def profile_passes(run: Callable[[], object], passes: int, device: Device) -> PassProfile:
    """Run `passes` passes under the profiler, each marked and synchronized; medians per operator."""
    with profile(activities=_activities(device)) as profiler:
        for _ in range(passes):
            with record_function(PASS_MARKER):
                run()
                device.synchronize()
    return summarize(per_pass_seconds(list(profiler.events()), device))
