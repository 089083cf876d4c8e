"""Warm up, then time a call until its spread settles or its deadline comes: the one timer of every probe.

Stops at whichever comes first: IQR/median under `spread_target` (checked once there are
`min_samples`, then each time the count grows by 10%, so the checks cost O(n log n) in all), the
case's deadline, or `max_samples`. See ADD_PROBE.md, "How our timer differs".
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections import deque
from collections.abc import Callable

from probes.harness.device import Device
from probes.models import HarnessSettings, Measurement, Stats, StopReason

_BATCH_S = 0.02  # wall time between deadline checks; short enough to stop close to the deadline
_MAX_CALLS_PER_SAMPLE = 1_000_000
_WARMUP_WINDOW = 16


Clock = Callable[[], float]


def warm_up(
    run: Callable[[], object], device: Device, settings: HarnessSettings, deadline: float, clock: Clock = time.monotonic
) -> tuple[int, float]:
    """Run until the warmup time (capped at a share of the time left) is spent; (calls, s per call).

    The time per call is the median of the last warmup calls, so that one preempted call does not
    set the block size. `clock` reads the time the deadline is on (injected by tests).
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
        if clock() + recent[-1] > start + budget:
            return calls, statistics.median(recent)


def time_run(
    run: Callable[[], object], device: Device, settings: HarnessSettings, deadline: float, clock: Clock = time.monotonic
) -> Measurement | None:
    """Timing samples of `run` until one stop rule holds; None if the deadline left no room for one.

    The deadline is on `clock` (time.monotonic; tests inject their own); the samples are the device's timer's."""
    warmup_calls, per_call = warm_up(run, device, settings, deadline, clock)
    if device.flushes_cache:
        calls = 1  # the flush must come between calls, so each sample is one call between events
    else:
        calls = max(1, min(_MAX_CALLS_PER_SAMPLE, math.ceil(settings.min_sample_s / max(per_call, 1e-9))))
    sample_wall = per_call * calls
    samples: list[float] = []
    next_check = settings.min_samples
    stop_reason: StopReason = "share spent"
    gc_was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()  # a collection inside a sample would be charged to the call, as timeit also avoids
    try:
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
                if Stats.from_samples(samples).rel_iqr <= settings.spread_target:
                    stop_reason = "converged"
                    break
                next_check = max(next_check + 1, math.ceil(len(samples) * 1.1))
    finally:
        if gc_was_enabled:
            gc.enable()
    if not samples:
        return None
    return Measurement.from_samples(
        samples,
        stop_reason=stop_reason,
        calls_per_sample=calls,
        warmup_calls=warmup_calls,
        cache_flushed=device.flushes_cache,
        confidence=settings.confidence,
        noise_threshold=settings.noise_threshold,
    )
