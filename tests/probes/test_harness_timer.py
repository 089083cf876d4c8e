"""The timer, the CPU peak-memory trackers and measure_case, run in this process on the CPU."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch

from probes.harness import device as device_module
from probes.harness import memory
from probes.harness.device import AcceleratorDevice, Device, open_device
from probes.harness.measure import describe_exception, measure_case
from probes.harness.timer import time_run
from probes.models import HarnessSettings
from probes.registry import Bench, CaseSpec, Unsupported, implementation, load_probe

QUICK = HarnessSettings(warmup_s=0.01)
ADD_CASE = CaseSpec(dtype="fp32", shape={"n": 1024}, options={"op": "add"}, bytes_moved=3 * 4 * 1024)


def spin(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_short_calls_are_blocked_and_the_spread_converges() -> None:
    device = open_device("cpu")
    timing = time_run(lambda: spin(2e-5), device, QUICK, time.monotonic() + 2.0)
    assert timing is not None
    assert timing.unit == "s" and not timing.cache_flushed
    assert timing.calls_per_sample >= 3  # 100 us per sample at 20 us per call: 5, less if preempted
    assert timing.stats.n == len(timing.samples) >= QUICK.min_samples
    assert timing.stats.median == pytest.approx(2e-5, rel=0.5)
    if timing.stop_reason == "converged":
        stats = timing.stats
        assert stats.ci_level >= QUICK.confidence
        assert stats.ci_low >= stats.median * (1 - QUICK.ci_target) and stats.ci_high <= stats.median * (
            1 + QUICK.ci_target
        )


class SteppingClock:
    """A deadline clock that moves a fixed step per reading: the stop rule is tested without wall time."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 100.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_timing_stops_at_its_deadline_when_the_spread_never_settles() -> None:
    durations = iter([1e-3, 4e-3] * 10_000)  # a bimodal call: the median's interval spans both modes
    one_call_per_sample = HarnessSettings(warmup_s=0.01, min_sample_s=1e-4)  # each sample is one call: no averaging
    clock = SteppingClock(0.01)
    deadline = clock.now + 0.4
    timing = time_run(lambda: spin(next(durations)), Device(), one_call_per_sample, deadline, clock)
    assert timing is not None and timing.stop_reason == "share spent"
    assert timing.stats.noisy
    # It never starts a batch the clock says would cross the deadline: at most one reading past it.
    assert clock.now <= deadline + 2 * clock.step


def test_a_deadline_already_past_leaves_no_sample() -> None:
    assert time_run(lambda: None, Device(), QUICK, time.monotonic() - 1) is None


def test_max_samples_caps_a_stable_fast_call() -> None:
    settings = HarnessSettings(warmup_s=0.0, min_samples=5, max_samples=20, ci_target=-1.0)
    timing = time_run(lambda: None, Device(), settings, time.monotonic() + 5)
    assert timing is not None and timing.stop_reason == "max samples" and timing.stats.n == 20


def test_vmhwm_sees_a_short_lived_allocation() -> None:
    with memory.CpuPeakTracker() as tracker:
        block = torch.ones(16 * 1024**2)  # 64 MiB, touched
        del block
    peak = tracker.result
    assert peak.method in ("linux.vmhwm", "psutil.rss-sampling") and peak.scope == "process"
    assert peak.peak_bytes is not None and peak.baseline_bytes is not None
    assert peak.peak_bytes - peak.baseline_bytes >= 48 * 1024**2


def test_rss_sampling_is_the_fallback_when_clear_refs_is_not_writable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(memory, "_CLEAR_REFS", tmp_path / "missing" / "clear_refs")
    with memory.CpuPeakTracker() as tracker:
        block = torch.ones(16 * 1024**2)
        time.sleep(0.02)  # the sampler ticks every millisecond
        del block
    assert tracker.result.method == "psutil.rss-sampling"
    assert tracker.result.peak_bytes - tracker.result.baseline_bytes >= 48 * 1024**2  # type: ignore[operator]


def test_measure_case_times_checks_and_derives_metrics() -> None:
    probe = load_probe("selftest")
    add = next(one for one in probe.implementations if one.name == "torch.add")
    case = measure_case("selftest", add, ADD_CASE, Device(), QUICK, time.monotonic() + 0.5)
    assert case.status == "ok" and case.reason is None and case.baseline
    assert case.key.case_id == "selftest/torch.add/fp32/n=1024/default/cpu/op=add"
    assert case.numeric is not None and case.numeric.passed
    assert case.memory is not None and case.memory.method != "none"
    assert case.metrics["gbps"].unit == "GB/s" and case.metrics["gbps"].value > 0
    assert "tflops" not in case.metrics  # the add declares no flops


def test_a_wrong_implementation_fails_its_tolerance_and_is_not_timed() -> None:
    @implementation("off-by-a-bit")
    def off_by_a_bit(case: CaseSpec, device: Device) -> Bench:
        a = torch.ones(case.shape["n"])
        return Bench(run=lambda: a * 1.001, reference=lambda: a.double())

    case = measure_case("selftest", off_by_a_bit, ADD_CASE, Device(), QUICK, time.monotonic() + 0.5)
    assert case.status == "failed" and case.timing is None
    assert case.numeric is not None and not case.numeric.passed
    assert case.numeric.max_abs == pytest.approx(1e-3, rel=1e-3)
    assert case.reason is not None and case.reason.startswith("numeric error outside the fp32 tolerance")


def test_exceptions_become_failed_or_skipped_cases() -> None:
    @implementation("raises")
    def raises(case: CaseSpec, device: Device) -> Bench:
        raise ValueError("bad shape\nsecond line")

    @implementation("unsupported")
    def unsupported(case: CaseSpec, device: Device) -> Bench:
        raise Unsupported("no fp32 kernel")

    failed = measure_case("selftest", raises, ADD_CASE, Device(), QUICK, time.monotonic() + 0.5)
    assert (failed.status, failed.reason) == ("failed", "raised ValueError: bad shape")
    skipped = measure_case("selftest", unsupported, ADD_CASE, Device(), QUICK, time.monotonic() + 0.5)
    assert (skipped.status, skipped.reason) == ("skipped", "unsupported: no fp32 kernel")


def test_allocation_failures_are_reported_as_out_of_memory() -> None:
    assert describe_exception(MemoryError()) == "out of memory: MemoryError"
    cpu_failure = RuntimeError("DefaultCPUAllocator: can't allocate memory: you tried to allocate 8 bytes")
    assert describe_exception(cpu_failure).startswith("out of memory: RuntimeError")
    assert describe_exception(RuntimeError("CUDA out of memory. Tried to allocate")).startswith("out of memory")


class FakeEvent:
    """Stands in for torch.cuda.Event: records host time, reports milliseconds."""

    def __init__(self, enable_timing: bool) -> None:
        assert enable_timing
        self.at = 0.0

    def record(self) -> None:
        self.at = time.perf_counter()

    def elapsed_time(self, end: FakeEvent) -> float:
        return (end.at - self.at) * 1e3


def fake_cuda_backend() -> SimpleNamespace:
    return SimpleNamespace(
        Event=FakeEvent,
        set_device=lambda index: None,
        synchronize=lambda index=None: None,
        get_device_properties=lambda index: SimpleNamespace(L2_cache_size=1024),
        reset_peak_memory_stats=lambda index: None,
        memory_allocated=lambda index: 100,
        max_memory_allocated=lambda index: 300,
    )


def test_accelerator_path_times_each_call_between_events_after_a_flush(monkeypatch: pytest.MonkeyPatch) -> None:
    """No GPU here: a fake torch.cuda checks our use of events, the flush buffer and allocator stats."""
    monkeypatch.setattr(device_module, "_MIN_FLUSH_BYTES", 4096)
    device = AcceleratorDevice("cuda", 0, fake_cuda_backend())  # type: ignore[arg-type]
    device.torch_device = torch.device("cpu")  # where the (small) flush buffer can live in this test
    calls: list[int] = []

    def call() -> None:
        calls.append(1)
        spin(1e-4)

    timing = time_run(call, device, QUICK, 100.3, SteppingClock(0.01))
    assert timing is not None and timing.cache_flushed and timing.calls_per_sample == 1
    assert timing.stats.min >= 1e-4 * 0.9  # a 100 us spin never times shorter; a busy host may make it longer
    assert len(calls) == timing.warmup_calls + timing.stats.n  # one call per sample
    assert device._flush_buffer is not None and device._flush_buffer.numel() == 4096  # max(2 x L2, minimum)
    assert timing.flush_note == "L2 of 1,024 bytes read from cuda device properties"
    with device.memory_tracker() as tracker:
        pass
    assert tracker.result.model_dump() == {
        "peak_bytes": 300,
        "baseline_bytes": 100,
        "method": "cuda.max_memory_allocated",
        "scope": "device-allocator",
    }


def test_the_stop_rule_is_the_median_confidence_interval() -> None:
    from probes.harness.timer import median_is_pinned
    from probes.models import Stats

    settings = HarnessSettings()  # 95%, +/- 2%
    tight = [1.0 + 0.001 * (index % 5) for index in range(10)]
    assert median_is_pinned(Stats.from_samples(tight), settings)
    assert not median_is_pinned(Stats.from_samples(tight[:5]), settings)  # 5 samples cannot reach 95%
    spread = [1.0 + 0.01 * (index % 11 - 5) for index in range(11)]  # +/- 5%: the interval is too wide at n = 11
    assert not median_is_pinned(Stats.from_samples(spread), settings)
    assert median_is_pinned(Stats.from_samples(spread * 12), settings)  # ... and narrow enough at n = 132
    assert not median_is_pinned(Stats.from_samples(tight), HarnessSettings(ci_target=-1.0))


def test_an_npu_that_does_not_report_its_l2_gets_the_assumed_size_labelled() -> None:
    backend = fake_cuda_backend()
    backend.get_device_properties = lambda index: SimpleNamespace(name="Ascend910B", total_memory=64 * 1024**3)
    device = object.__new__(AcceleratorDevice)  # torch here has no npu device type: set only what sizing reads
    device.kind, device.index, device._backend = "npu", 0, backend  # type: ignore[assignment]
    assert device._flush_bytes() == 2 * 192 * 1024**2
    assert device.flush_note == "L2 size not reported by npu: assumed 192 MiB (Ascend 910B)"


def test_the_steady_warmup_calls_are_the_first_samples_of_a_one_call_sample() -> None:
    calls = 0

    def run() -> None:
        nonlocal calls
        calls += 1
        spin(2e-3)  # longer than min_sample_s: one call per sample

    timing = time_run(run, open_device("cpu"), QUICK, time.monotonic() + 2.0)
    assert timing is not None and timing.calls_per_sample == 1
    # Every call made is a warmup call or a sample, none counted twice: the three steady warmup calls
    # that ended the warmup are the first samples, so fewer than the four a steady warmup takes remain.
    assert calls == timing.warmup_calls + len(timing.samples)
    assert timing.warmup_calls <= calls - 3 and len(timing.samples) >= QUICK.min_samples
