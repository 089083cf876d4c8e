"""The int8 probe's whole-model cases: a reference model in ONNX Runtime on the CPU, fp32 against int8.

The CNN's two cases run for real through the harness (build, numeric check, timing); nothing here
checks speed, which is noise on a shared machine: only that the cases were timed, that the int8
error is small, and what the readings, findings and record table make of them.
"""

from __future__ import annotations

import math
import sys
import time

import pytest

from probes.harness.device import Device
from probes.harness.measure import measure_case
from probes.int8 import onnx_model
from probes.int8.options import Int8Options
from probes.int8.probe import model_fp32
from probes.int8.report import int8_findings, int8_readings, int8_table, model_results
from probes.int8.sizing import DEFAULT_MODEL_TYPES, MODEL_SIZE, int8_cases, model_cases
from probes.models import HarnessSettings, ProbeCase
from probes.registry import CaseSpec, Implementation, ProbeOptionsError, Unsupported, load_probe

CASE_S = 5.0  # each case's deadline: ample for 10+ samples of a ~1 ms call, even on a busy machine


def _implementation(case: CaseSpec) -> Implementation:
    matching = [one for one in load_probe("int8").implementations if one.supports(case)]
    assert len(matching) == 1, [one.name for one in matching]
    return matching[0]


def _measure(case: CaseSpec, device: Device | None = None) -> ProbeCase:
    deadline = time.monotonic() + CASE_S
    return measure_case("int8", _implementation(case), case, device or Device(), HarnessSettings(), deadline)


def _cuda_like() -> Device:
    device = Device()
    device.kind = "cuda"  # only the kind is read before the builder gives up
    return device


@pytest.fixture(scope="module")
def cnn_cases() -> list[ProbeCase]:
    return [_measure(case) for case in model_cases(["cnn"])]


# --- the real cases ------------------------------------------------------------------------------


def test_the_cnn_runs_timed_in_fp32_and_int8(cnn_cases: list[ProbeCase]) -> None:
    fp32, int8 = cnn_cases
    assert (fp32.key.implementation, fp32.key.dtype, fp32.baseline) == ("onnxruntime", "fp32", True)
    assert (int8.key.implementation, int8.key.dtype) == ("onnxruntime.static-qdq", "int8")  # convolutions: static QDQ
    for case in cnn_cases:
        assert case.status == "ok", case.reason
        assert case.key.options["model"] == "cnn" and case.key.shape["batch"] == 1
        assert case.numeric is not None and case.numeric.passed  # against the torch model in float64
        assert case.timing is not None and len(case.timing.samples) >= 1
        assert all(sample > 0 for sample in case.timing.samples) and case.timing.stats.median > 0
    assert fp32.numeric.max_abs < 1e-4  # fp32 ONNX Runtime is the torch model


def test_the_int8_error_against_fp32_is_a_finite_small_metric(cnn_cases: list[ProbeCase]) -> None:
    metrics = cnn_cases[1].metrics
    for name in ("max_rel_error", "rel_rmse", "worst_row_rel_rmse"):
        assert metrics[name].unit == "ratio"
        assert math.isfinite(metrics[name].value) and 0 < metrics[name].value < 0.1, name
    assert not any(name in cnn_cases[0].metrics for name in ("max_rel_error", "rel_rmse"))  # fp32 is the reference


def test_readings_findings_and_table_of_the_cnn(cnn_cases: list[ProbeCase]) -> None:
    readings = {reading.name: reading for reading in int8_readings(cnn_cases)}
    speedup, error = readings["int8_model_speedup_cnn"], readings["int8_model_rel_error_cnn"]
    assert speedup.value > 0 and speedup.figure.startswith("ORT int8 cnn model ") and "x fp32" in speedup.figure
    assert set(speedup.case_ids) == {case.key.case_id for case in cnn_cases}
    assert error.value == cnn_cases[1].metrics["max_rel_error"].value and error.case_ids == (cnn_cases[1].key.case_id,)
    # The GEMM/MLP readings do not read the model cases.
    assert not {"int8_speedup", "int8_kernel_speedup", "int8_max_rel_error"} & set(readings)

    (result,) = model_results(cnn_cases)
    assert result.speedup == pytest.approx(speedup.value)
    (line,) = int8_findings(cnn_cases)
    assert line.startswith("ORT int8 cnn model (onnxruntime.static-qdq, 1x64x32x100): ") and "relative RMSE" in line
    (row,) = int8_table(cnn_cases).rows
    assert row[:2] == ("onnxruntime.static-qdq", "cnn model 1x64x32x100") and row[2].endswith("x")


# --- skips, never failures ----------------------------------------------------------------------------


def test_off_the_cpu_the_cases_are_skipped_with_the_reason() -> None:
    for case in model_cases(["cnn"]):
        measured = _measure(case, _cuda_like())
        assert measured.status == "skipped" and "CPUExecutionProvider" in (measured.reason or ""), measured.reason


def test_without_onnxruntime_the_cases_are_skipped_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # what an import that fails looks like
    for case in model_cases(["dense-transformer"]):
        measured = _measure(case)
        assert measured.status == "skipped", measured.reason
        assert "onnx/onnxruntime not available: ModuleNotFoundError" in (measured.reason or "")


def test_a_model_that_fails_to_export_is_skipped_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    import torch.onnx

    def unexportable(*_: object, **__: object) -> None:
        raise RuntimeError("ONNX export of operator Sort, Out parameter is not supported")

    onnx_model.forget_prepared()
    monkeypatch.setattr(torch.onnx, "export", unexportable)
    try:
        with pytest.raises(
            Unsupported, match="ONNX export of the diffusion reference model failed: RuntimeError: ONNX"
        ):
            model_fp32(model_cases(["diffusion"])[0], Device())
        measured = [_measure(case) for case in model_cases(["diffusion"])]
        assert [case.status for case in measured] == ["skipped", "skipped"]
        assert all("export of the diffusion reference model failed" in (case.reason or "") for case in measured)
    finally:
        onnx_model.forget_prepared()  # the failure is kept per child: do not keep it here


def test_a_model_onnxruntime_cannot_quantize_still_runs_in_fp32(monkeypatch: pytest.MonkeyPatch) -> None:
    def unquantizable(model: onnx_model.ExportedModel) -> bytes:
        raise Unsupported(f"onnxruntime static quantization of the {model.model_type} model failed: ValueError: no")

    onnx_model.forget_prepared()
    monkeypatch.setattr(onnx_model, "quantize", unquantizable)
    try:
        onnx_model.prepare("cnn", MODEL_SIZE)  # while planning: never raises
        fp32, int8 = (_measure(case) for case in model_cases(["cnn"]))
        assert fp32.status == "ok", fp32.reason
        assert int8.status == "skipped" and "static quantization of the cnn model failed" in (int8.reason or "")
    finally:
        onnx_model.forget_prepared()


# --- planning -----------------------------------------------------------------------------------------


def test_the_profile_model_type_picks_the_model_and_its_recipe() -> None:
    for model_type, implementation in (
        ("cnn", "onnxruntime.static-qdq"),
        ("diffusion", "onnxruntime.static-qdq"),
        ("dense-transformer", "onnxruntime.dynamic"),
        ("moe", "onnxruntime.dynamic"),
        ("multimodal", "onnxruntime.dynamic"),
    ):
        planned = int8_cases(_cuda_like(), 10.0, Int8Options(model_type=model_type))  # the CPU would prepare them all
        cases = [case for case in planned if case.options["op"] == "model"]
        assert [case.dtype for case in cases] == ["fp32", "int8"]
        assert all(case.options["model"] == model_type and case.options["size"] == MODEL_SIZE for case in cases)
        assert cases[1].options["float_dtype"] == "fp32" and cases[1].tolerance is not None
        assert _implementation(cases[0]).name == "onnxruntime" and _implementation(cases[1]).name == implementation


def test_without_a_model_type_the_defaults_fit_the_share() -> None:
    def models(share_s: float) -> list[object]:
        return [case.options["model"] for case in int8_cases(Device(), share_s) if case.options["op"] == "model"][::2]

    assert models(1.0) == [DEFAULT_MODEL_TYPES[0]]  # a tiny share still measures the first
    assert models(60.0) == list(DEFAULT_MODEL_TYPES)
    planned = int8_cases(Device(), 60.0)
    assert [case.options["op"] for case in planned[:4]] == ["model"] * 4  # first: a share that runs out spares them
    # Planned elsewhere too, to be skipped with the reason.
    assert [case.options["model"] for case in int8_cases(_cuda_like(), 1.0) if case.options["op"] == "model"][::2] == [
        "cnn"
    ]


def test_the_option_is_validated_by_the_probe() -> None:
    probe = load_probe("int8").probe
    planned = probe.plan(Device(), 5.0, {"model_type": "dense-transformer"})
    assert {case.options["model"] for case in planned if case.options["op"] == "model"} == {"dense-transformer"}
    with pytest.raises(ProbeOptionsError, match="model_type"):
        probe.plan(Device(), 5.0, {"model_type": "rnn"})
