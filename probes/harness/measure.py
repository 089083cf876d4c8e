"""Measure one implementation on one case: build, peak memory, numeric check, timing, derived metrics.

Runs inside the probe's child process. A Python exception becomes a failed case with its reason;
crashes and hangs cannot be caught here and are recorded by the parent (see session.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from probes.harness.device import Device
from probes.harness.host_allocator import release_freed_memory
from probes.harness.numerics import compare
from probes.harness.timer import time_run
from probes.models import HarnessSettings, Measurement, Metric, ProbeCase
from probes.registry import Bench, CaseSpec, Implementation, Scenario, ScenarioResult, Unsupported
from probes.tolerance import tolerance_for

_OOM_MARKERS = ("out of memory", "can't allocate memory", "cannot allocate memory")


def describe_exception(error: BaseException) -> str:
    """One line: 'out of memory: ...' for allocation failures, 'raised ...' for anything else."""
    message = str(error).strip().splitlines()[0] if str(error).strip() else ""
    text = f"{type(error).__name__}: {message}" if message else type(error).__name__
    out_of_memory = isinstance(error, MemoryError) or type(error).__name__ == "OutOfMemoryError"
    if out_of_memory or any(marker in message.lower() for marker in _OOM_MARKERS):
        return f"out of memory: {text}"[:300]
    return f"raised {text}"[:300]


def derive_metrics(case: CaseSpec, timing: Measurement) -> dict[str, Metric]:
    """Throughput from the median time and the work the case declares."""
    seconds = timing.stats.median
    metrics: dict[str, Metric] = {}
    if seconds > 0 and case.flops:
        metrics["tflops"] = Metric(value=case.flops / seconds / 1e12, unit="TFLOP/s")
    if seconds > 0 and case.bytes_moved:
        metrics["gbps"] = Metric(value=case.bytes_moved / seconds / 1e9, unit="GB/s")
    return metrics


def measure_case(
    probe: str,
    implementation: Implementation,
    case: CaseSpec,
    device: Device,
    settings: HarnessSettings,
    deadline: float,
    first_visit: ProbeCase | None = None,
) -> ProbeCase:
    """Measure `implementation` on `case`, stopping the timing at `deadline` (time.monotonic).

    With `first_visit` (the same case as its earlier visits left it, from an earlier child) this is a later
    visit: the case is built afresh but not checked again, its samples are timed with the first visit's
    calls per sample and joined to the earlier ones (`join_visits`); if this visit times nothing, the
    earlier visits stand as they were."""
    if first_visit is not None:
        assert first_visit.timing is not None
        later = _measure(probe, implementation, case, device, settings, deadline, first_visit.timing.calls_per_sample)
        return join_visits(first_visit, later, case, settings)
    return _measure(probe, implementation, case, device, settings, deadline, None)


def join_visits(first: ProbeCase, later: ProbeCase, case: CaseSpec, settings: HarnessSettings) -> ProbeCase:
    """The case as its earlier visits left it (`first`) with the later visit's samples appended; as it was if
    the later one timed nothing. Memory, numerics and extra metrics stay the first visit's; throughput follows
    the joined median."""
    if first.timing is None or later.status != "ok" or later.timing is None:
        return first.model_copy(update={"wall_s": first.wall_s + later.wall_s})
    before, added = first.timing, later.timing
    timing = Measurement.from_samples(
        before.samples + added.samples,
        stop_reason=added.stop_reason,
        calls_per_sample=before.calls_per_sample,
        warmup_calls=before.warmup_calls + added.warmup_calls,
        cache_flushed=before.cache_flushed,
        flush_note=before.flush_note,
        confidence=settings.confidence,
        noise_threshold=settings.noise_threshold,
        visits=[*(before.visits or [len(before.samples)]), len(added.samples)],
    )
    metrics = {**first.metrics, **derive_metrics(case, timing)}
    return first.model_copy(update={"timing": timing, "metrics": metrics, "wall_s": first.wall_s + later.wall_s})


def _measure(
    probe: str,
    implementation: Implementation,
    case: CaseSpec,
    device: Device,
    settings: HarnessSettings,
    deadline: float,
    calls_per_sample: int | None,
) -> ProbeCase:
    began = time.monotonic()
    key = case.key(probe, implementation.name, device.kind)
    result = ProbeCase(key=key, status="failed", baseline=implementation.baseline)
    if settings.hold_freed_host_memory:
        release_freed_memory()  # earlier cases' free heap must not hide this case's peak
    try:
        tracker = device.memory_tracker()
        with tracker:
            built = implementation(case, device)
            if isinstance(built, Scenario):
                played = built.play()
                device.synchronize()
            else:
                output = built.run()
                device.synchronize()
        result.memory = tracker.result
        if isinstance(built, Scenario):
            _record_scenario(result, case, built, played)
        else:
            _record_bench(result, case, built, output, device, settings, deadline, calls_per_sample)
    except Unsupported as unsupported:
        result.status, result.reason = "skipped", f"unsupported: {unsupported}"
    except Exception as error:  # noqa: BLE001 - any probe bug is a failed case, never a failed suite
        result.status, result.reason = "failed", describe_exception(error)
    result.wall_s = time.monotonic() - began
    return result


def _check_numerics(result: ProbeCase, case: CaseSpec, output: object, reference: Callable[[], object] | None) -> bool:
    """Compare with the float64 reference when there is one; False (and a reason) when out of tolerance."""
    if reference is None or output is None:
        return True
    result.numeric = compare(output, reference(), tolerance_for(case.dtype, case.tolerance))
    if not result.numeric.passed:
        # Timing a wrong answer would only spend budget: the case is failed, untimed.
        result.reason = f"numeric error outside the {case.dtype} tolerance: {result.numeric.detail}"
        return False
    return True


def _record_bench(
    result: ProbeCase,
    case: CaseSpec,
    bench: Bench,
    output: object,
    device: Device,
    settings: HarnessSettings,
    deadline: float,
    calls_per_sample: int | None,
) -> None:
    revisit = calls_per_sample is not None  # checked on the first visit: the same build, the same answer
    passed = revisit or _check_numerics(result, case, output, bench.reference)
    del output
    if not passed:
        return
    # Extra metrics (error studies, compile counts) hold whether or not a timing follows.
    if bench.untimed is not None:
        result.status, result.reason = "not-timed", bench.untimed
        result.metrics = _extra_metrics(bench)
        return
    result.timing = time_run(bench.run, device, settings, deadline, calls_per_sample=calls_per_sample)
    if result.timing is None:
        result.status = "not-timed"
        result.reason = "its time share was spent before a timed sample fit"
        result.metrics = _extra_metrics(bench)
        return
    result.status = "ok"
    result.metrics = {**derive_metrics(case, result.timing), **_extra_metrics(bench)}
    if result.numeric is None:
        result.reason = "no float64 reference: numerics not checked"


def _extra_metrics(bench: Bench) -> dict[str, Metric]:
    return bench.extra_metrics() if bench.extra_metrics is not None else {}


def _record_scenario(result: ProbeCase, case: CaseSpec, scenario: Scenario, played: ScenarioResult) -> None:
    if not _check_numerics(result, case, played.output, scenario.reference):
        return
    if not played.step_seconds:
        result.status, result.reason = "not-timed", "the scenario recorded no steps"
        return
    result.timing = Measurement.from_samples(played.step_seconds, stop_reason="single pass")
    result.status = "ok"
    result.metrics = {**played.metrics}
    result.operators = played.operators
