"""Warm up, then time a call until its median is known well enough or its deadline comes: the one timer.

The calls per sample are calibrated once, in the warmup (a CPU sample lasts at least `min_sample_s`).
Timing stops at whichever comes first: the median's distribution-free confidence interval (at
`confidence`) within +/- `ci_target` of the median, checked once there are `min_samples`, then each
time the count grows by 10% (so the checks cost O(n log n) in all), as nvbench and torch's
adaptive_autorange stop on their noise criteria; the case's deadline; or `max_samples`. A quiet
case stops after `min_samples`; a noisy one takes samples until its median is pinned down.
See ADD_PROBE.md, "How our timer differs".
"""

from __future__ import annotations

import math
import statistics
import time
from collections import deque
from collections.abc import Callable
from typing import NamedTuple

from probes.harness.collector import collector_paused
from probes.harness.device import Device
from probes.models import HarnessSettings, Measurement, Stats, StopReason

_BATCH_S = 0.02  # wall time between deadline checks; short enough to stop close to the deadline
_MAX_CALLS_PER_SAMPLE = 1_000_000
_WARMUP_WINDOW = 16
_STEADY_CALLS = 3
_STEADY_SPREAD = 0.05


Clock = Callable[[], float]


class Warmup(NamedTuple):
    """What the warmup learnt: calls made, seconds per call, and the steady calls' times ([] if never steady)."""

    calls: int
    per_call: float
    steady: list[float]


def warm_up(
    run: Callable[[], object], device: Device, settings: HarnessSettings, deadline: float, clock: Clock = time.monotonic
) -> Warmup:
    """Run until the call time is steady or the warmup time (capped at a share of the time left) is spent.

    Steady: the last `_STEADY_CALLS` calls within +/- `_STEADY_SPREAD` of their median (the first calls
    pay one-time costs: allocation, kernel selection, caches). The time per call is the median of the
    last warmup calls, so that one preempted call does not set the block size. `clock` reads the time
    the deadline is on (injected by tests).
    """
    start = clock()
    budget = min(settings.warmup_s, settings.warmup_share * max(0.0, deadline - start))
    recent: deque[float] = deque(maxlen=_WARMUP_WINDOW)
    calls = 0
    while True:
        began = time.perf_counter()
        run()
        device.synchronize()
        recent.append(time.perf_counter() - began)
        calls += 1
        if _steady(recent):
            return Warmup(calls, statistics.median(recent), list(recent)[-_STEADY_CALLS:])
        if clock() + recent[-1] > start + budget:
            return Warmup(calls, statistics.median(recent), [])


def _steady(recent: deque[float]) -> bool:
    if len(recent) < _STEADY_CALLS + 1:  # the first call never counts: it pays the one-time costs
        return False
    last = list(recent)[-_STEADY_CALLS:]
    middle = statistics.median(last)
    return middle > 0 and all(abs(value - middle) <= _STEADY_SPREAD * middle for value in last)


def median_is_pinned(stats: Stats, settings: HarnessSettings) -> bool:
    """The median's CI reaches the asked confidence and lies within +/- ci_target of the median."""
    if stats.median <= 0 or stats.ci_level < settings.confidence:
        return False
    return max(stats.median - stats.ci_low, stats.ci_high - stats.median) <= settings.ci_target * stats.median


def time_run(
    run: Callable[[], object],
    device: Device,
    settings: HarnessSettings,
    deadline: float,
    clock: Clock = time.monotonic,
    calls_per_sample: int | None = None,
) -> Measurement | None:
    """Timing samples of `run` until one stop rule holds; None if the deadline left no room for one (and the
    warmup, whose steady calls a one-call CPU sample counts as its first samples, never steadied).

    The deadline is on `clock` (time.monotonic; tests inject their own); the samples are the device's timer's.
    `calls_per_sample` keeps an earlier visit's calibration, so both visits' samples time the same block."""
    warmup = warm_up(run, device, settings, deadline, clock)
    per_call = warmup.per_call
    if device.flushes_cache:
        calls = 1  # the flush must come between calls, so each sample is one call between events
    elif calls_per_sample is not None:
        calls = calls_per_sample
    else:
        calls = max(1, min(_MAX_CALLS_PER_SAMPLE, math.ceil(settings.min_sample_s / max(per_call, 1e-9))))
    sample_wall = per_call * calls
    # The steady warmup calls were timed as a one-call CPU sample is (perf_counter around the call), so
    # they count as the first samples; a device sample has a flush before it, which the warmup had not.
    reused = warmup.steady if calls == 1 and not device.flushes_cache else []
    warmup_calls = warmup.calls - len(reused)
    samples: list[float] = list(reused)
    next_check = settings.min_samples
    stop_reason: StopReason = "share spent"
    # A collection inside a sample would be charged to the call, so none runs while timing, as in
    # timeit. No full collection before: with torch loaded one costs ~95 ms, more than most cases.
    with collector_paused():
        while True:
            remaining = deadline - clock()
            if remaining < sample_wall:
                break
            wanted = min(next_check, settings.max_samples) - len(samples)
            batch = max(1, min(wanted, int(min(remaining, _BATCH_S) / max(sample_wall, 1e-9))))
            began = clock()
            samples.extend(device.time_calls(run, batch, calls))
            sample_wall = (clock() - began) / batch  # includes flush and timer overhead
            if len(samples) >= settings.max_samples:
                stop_reason = "max samples"
                break
            if len(samples) >= next_check:
                if median_is_pinned(Stats.from_samples(samples), settings):
                    stop_reason = "converged"
                    break
                next_check = max(next_check + 1, math.ceil(len(samples) * 1.1))
    if not samples:
        return None
    return Measurement.from_samples(
        samples,
        stop_reason=stop_reason,
        calls_per_sample=calls,
        warmup_calls=warmup_calls,
        cache_flushed=device.flushes_cache,
        flush_note=device.flush_note,
        confidence=settings.confidence,
        noise_threshold=settings.noise_threshold,
    )
