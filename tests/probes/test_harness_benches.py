"""Bench variants the probes rely on: untimed checks, extra metrics, single-pass scenarios, % of peak."""

from __future__ import annotations

import time

import pytest
import torch

from probes.harness.device import open_device
from probes.harness.measure import measure_case
from probes.harness.peak_share import add_peak_shares
from probes.models import HarnessSettings, Metric
from probes.registry import Bench, CaseSpec, Scenario, ScenarioResult, implementation

CASE = CaseSpec(dtype="fp32", shape={"m": 8, "n": 8, "k": 8}, flops=2.0 * 8**3)
SETTINGS = HarnessSettings(min_samples=5, max_samples=50, warmup_s=0.01)


def measure(build, case: CaseSpec = CASE):
    impl = implementation("impl")(build)
    return measure_case("unit", impl, case, open_device("cpu"), SETTINGS, time.monotonic() + 0.5)


def test_untimed_bench_is_checked_but_not_timed():
    a = torch.randn(8, 8)
    result = measure(
        lambda case, device: Bench(run=lambda: a @ a, reference=lambda: a.double() @ a.double(), untimed="interpreter")
    )
    assert result.status == "not-timed" and result.reason == "interpreter"
    assert result.numeric is not None and result.numeric.passed
    assert result.timing is None


def test_untimed_bench_keeps_its_extra_metrics():
    a = torch.randn(8, 8)
    result = measure(
        lambda case, device: Bench(
            run=lambda: a @ a,
            untimed="error study",
            extra_metrics=lambda: {"rel_rmse": Metric(value=0.25, unit="ratio")},
        )
    )
    assert result.status == "not-timed" and result.metrics["rel_rmse"].value == 0.25


def test_untimed_bench_with_a_wrong_answer_fails():
    a = torch.randn(8, 8)
    result = measure(
        lambda case, device: Bench(
            run=lambda: a @ a + 1, reference=lambda: a.double() @ a.double(), untimed="interpreter"
        )
    )
    assert result.status == "failed" and "tolerance" in result.reason


def test_extra_metrics_join_the_derived_ones():
    a = torch.randn(8, 8)
    calls = []

    def run():
        calls.append(1)
        return a @ a

    result = measure(
        lambda case, device: Bench(
            run=run,
            reference=lambda: a.double() @ a.double(),
            extra_metrics=lambda: {"calls": Metric(value=len(calls), unit="calls")},
        )
    )
    assert result.status == "ok"
    assert "tflops" in result.metrics and result.metrics["calls"].value == len(calls) > 1


def test_scenario_runs_once_and_keeps_its_steps_and_metrics():
    plays = []

    def play() -> ScenarioResult:
        plays.append(1)
        return ScenarioResult(step_seconds=[0.001, 0.003, 0.002], metrics={"recompiles": Metric(value=2, unit="count")})

    result = measure(lambda case, device: Scenario(play=play))
    assert plays == [1]
    assert result.status == "ok" and result.timing.stop_reason == "single pass"
    assert result.timing.samples == [0.001, 0.003, 0.002] and result.timing.stats.median == 0.002
    assert result.metrics["recompiles"].value == 2
    assert result.memory is not None


def test_scenario_output_is_checked_against_its_reference():
    def play() -> ScenarioResult:
        return ScenarioResult(step_seconds=[0.001], output=torch.ones(3))

    result = measure(lambda case, device: Scenario(play=play, reference=lambda: torch.zeros(3, dtype=torch.float64)))
    assert result.status == "failed" and result.numeric is not None and not result.numeric.passed


def test_peak_share_uses_the_environment_peak_for_the_dtype(environment_factory):
    a = torch.randn(8, 8)
    result = measure(lambda case, device: Bench(run=lambda: a @ a, reference=lambda: a.double() @ a.double()))
    environment = environment_factory()
    add_peak_shares([result], environment)
    peak = environment.peak_for("cpu").tflops["fp32"]
    assert result.metrics["pct_of_peak"].value == 100 * result.metrics["tflops"].value / peak


def test_no_peak_share_without_a_peak(environment_factory):
    result = measure(lambda case, device: Bench(run=lambda: torch.ones(1)))
    result.metrics["tflops"] = Metric(value=1.0, unit="TFLOP/s")
    environment = environment_factory(with_peaks=False)
    add_peak_shares([result], environment)
    assert "pct_of_peak" not in result.metrics


def test_contention_meter_sees_a_busy_sibling_process():
    import subprocess
    import sys

    from probes.harness.contention import ContentionMeter

    meter = ContentionMeter.start()
    # A process that is not our child: started through a shell that exits at once (double fork).
    subprocess.run(
        ["sh", "-c", f"{sys.executable} -c 'import time; end = time.time() + 1.5\nwhile time.time() < end: pass' &"],
        check=True,
    )
    time.sleep(1.6)
    result = meter.result()
    assert 0.0 <= result.other_cpu_share <= 1.0 and result.logical_cores >= 1
    # One spinning process on N cores is at most 1/N of the machine; allow scheduler slack.
    assert result.other_cpu_share >= 0.5 / result.logical_cores - 0.1


def test_peak_share_and_device_name_for_the_new_device_kinds(environment_factory):
    from probes.environment.models import GaudiInfo, NeuronInfo, PeakFigures, TPUInfo
    from probes.environment.peaks import accelerator_peak
    from probes.harness.peak_share import peak_kind
    from probes.models import Evidence, HarnessSettings, ProbeConfig

    tpu_peak = accelerator_peak("TPU v5 lite")
    assert isinstance(tpu_peak, PeakFigures) and tpu_peak.kind == "tpu"
    on_tpu = environment_factory(tpu=TPUInfo(devices=["TPU v5 lite"]), peaks=[tpu_peak])
    on_neuron = environment_factory(neuron=NeuronInfo(devices=["Trainium2"]))
    on_gaudi = environment_factory(gaudi=GaudiInfo(devices=["HL-325L"]))
    assert peak_kind("xla:0", on_tpu) == "tpu" and peak_kind("xla", on_neuron) == "neuron"
    assert (
        peak_kind("hpu", on_gaudi) == "hpu"
        and peak_kind("mps", on_gaudi) == "gpu"
        and peak_kind("cuda", on_tpu) == "gpu"
    )

    result = measure(lambda case, device: Bench(run=lambda: torch.ones(1)))
    result.metrics["tflops"] = Metric(value=98.5, unit="TFLOP/s")
    result = result.model_copy(update={"key": result.key.model_copy(update={"device": "xla", "dtype": "bf16"})})
    add_peak_shares([result], on_tpu)
    assert result.metrics["pct_of_peak"].value == pytest.approx(100 * 98.5 / tpu_peak.tflops["bf16"])

    config = ProbeConfig(
        budget_s=1.0, device_requested="auto", device="xla", probes=["gemm"], settings=HarnessSettings()
    )
    for environment, device, name in (
        (on_tpu, "xla", "TPU v5 lite"),
        (on_gaudi, "hpu", "HL-325L"),
        (on_neuron, "xla", "Trainium2"),
    ):
        evidence = Evidence(
            environment=environment,
            config=config,
            cases=[],
            started_at=environment.captured_at,
            finished_at=environment.captured_at,
        )
        assert evidence.device_name(device) == name
