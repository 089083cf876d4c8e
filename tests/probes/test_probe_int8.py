"""The int8 probe: a short CPU run, its sizing, the quantization math, the error metrics and the speedup pairing.

Timings on this shared machine are noise: nothing here checks speed, only structure and numbers
that do not depend on it (hand-computed quantization codes, seeded error studies, ratios of
hand-built medians).
"""

from __future__ import annotations

import math
import sys

import pytest
import torch

from probes.harness.device import Device
from probes.int8.error_metrics import row_relative_errors
from probes.int8.inputs import dequantize, fake_quantize, quantize, symmetric_scale
from probes.int8.probe import (
    _check_int_mm_shape,
    _torchao_quantizer,
    layernorm_input,
    layernorm_output,
    weight_per_channel,
    weight_per_tensor,
)
from probes.int8.report import int8_speedups
from probes.int8.sizing import (
    GEMM_ROWS,
    LAYERNORM_STUDY_TOLERANCE,
    TORCHAO_IMPORT_S,
    WEIGHT_STUDY_TOLERANCE,
    WIDTHS,
    TimedPlan,
    int8_cases,
    pair_seconds,
    timed_plan,
)
from probes.models import CaseKey, Evidence, Measurement, ProbeCase
from probes.registry import CaseSpec, Unsupported, load_probe
from probes.runner import run_probes

IMPLEMENTATIONS = {
    "torch._int_mm",
    "torch.matmul",
    "torch.nn.Linear",
    "torchao.int8_weight_only",
    "torchao.int8_dynamic",
    "qdq.per-tensor",
    "qdq.per-channel",
    "qdq.layernorm-input",
    "qdq.layernorm-output",
}
# Whole-model cases (ONNX Runtime): the fp32 baseline, and the int8 recipe of each model type planned.
MODEL_IMPLEMENTATIONS = {"onnxruntime", "onnxruntime.static-qdq", "onnxruntime.dynamic"}
ERROR_METRICS = {"max_rel_error", "rel_rmse", "worst_row_rel_rmse"}


@pytest.fixture(scope="module")
def evidence() -> Evidence:
    return run_probes(["int8"], budget_s=15, device="cpu")


# --- the probe run -----------------------------------------------------------------------------


def test_every_implementation_is_planned_and_none_fails(evidence: Evidence) -> None:
    run = evidence.probe_runs[0]
    assert run.probe == "int8" and run.status == "ok", run.reason
    measured = {case.key.implementation for case in evidence.cases}
    # The CNN's pair always; the dense transformer's too when the share affords it (test_probe_int8_model.py).
    assert measured - MODEL_IMPLEMENTATIONS == IMPLEMENTATIONS
    assert {"onnxruntime", "onnxruntime.static-qdq"} <= measured <= IMPLEMENTATIONS | MODEL_IMPLEMENTATIONS
    assert {
        registered.name for registered in load_probe("int8").implementations
    } == IMPLEMENTATIONS | MODEL_IMPLEMENTATIONS
    # On a busy machine a case may run out of time (or torchao may be absent), but none may fail.
    assert all(case.status in ("ok", "not-timed", "skipped") for case in evidence.cases), [
        (case.key.case_id, case.reason) for case in evidence.cases if case.status == "failed"
    ]
    for case in (case for case in evidence.cases if case.status != "ok"):
        allowed = ("time share", "torchao not available", "onnx/onnxruntime not available")
        assert case.reason and any(reason in case.reason for reason in allowed), case.reason
    assert any(case.status == "ok" for case in evidence.cases)


def test_checked_cases_pass_their_tolerance_and_int8_gemm_is_exact(evidence: Evidence) -> None:
    for case in evidence.cases:
        if case.status == "ok":
            assert case.numeric is not None and case.numeric.passed, case.key.case_id
        if case.key.implementation == "torch._int_mm" and case.numeric is not None:
            assert case.numeric.max_abs == 0.0


def test_ok_cases_carry_their_metrics_with_units(evidence: Evidence) -> None:
    for case in (case for case in evidence.cases if case.status == "ok"):
        op = case.key.options["op"]
        if op in ("gemm", "mlp"):
            assert case.metrics["tflops"].unit == "TFLOP/s" and case.metrics["tflops"].value > 0
        if op != "gemm" and not (op == "model" and case.key.dtype == "fp32"):  # int8 models: error vs fp32
            assert ERROR_METRICS <= set(case.metrics), case.key.case_id
            assert all(case.metrics[name].unit == "ratio" for name in ERROR_METRICS)
        if case.key.implementation.startswith("torchao."):
            assert 0 < case.metrics["max_rel_error"].value < 0.1  # int8: about 2%, never lost


def test_speedups_pair_every_timed_int8_case_with_a_float_baseline(evidence: Evidence) -> None:
    speedups = int8_speedups(evidence.cases)
    timed = {case.key.case_id: case for case in evidence.cases if case.status == "ok"}
    for case_id, speedup in speedups.items():
        assert timed[case_id].key.dtype == "int8" and speedup > 0
    assert not any(case_id.startswith("int8/qdq.") for case_id in speedups)  # studies have no float twin


def test_case_ids_are_stable_across_plannings_and_the_studies_never_move() -> None:
    def planned_ids(share_s: float) -> list[str]:
        return [case.key("int8", "impl", "cpu").case_id for case in int8_cases(Device(), share_s)]

    assert planned_ids(40.0) == planned_ids(40.0)
    studies = [case_id for case_id in planned_ids(40.0) if "qdq" in case_id]
    assert len(studies) == 2 and studies == [case_id for case_id in planned_ids(3.0) if "qdq" in case_id]


# --- sizing ------------------------------------------------------------------------------------


def test_pair_cost_by_hand() -> None:
    flops = 2.0 * 256 * 512 * 512
    assert pair_seconds("cpu", flops) == pytest.approx(0.3 + flops / 5e9 + 20 * flops / 1e10)


def test_a_tiny_share_still_gets_the_narrowest_plan() -> None:
    assert timed_plan("cpu", 0.5) == TimedPlan(WIDTHS[0], GEMM_ROWS[:2])
    assert timed_plan("cuda", -1.0) == TimedPlan(WIDTHS[0], GEMM_ROWS[:2])


def test_more_time_or_faster_hardware_gets_wider_shapes() -> None:
    widths = [timed_plan("cpu", share).width for share in (5, 20, 60, 300)]
    assert widths == sorted(widths) and widths[-1] > widths[0]
    assert timed_plan("cuda", 20).width > timed_plan("cpu", 20).width
    assert timed_plan("cuda", 300) == TimedPlan(8192, GEMM_ROWS)  # prefill-like rows only on a long share


def test_each_pair_of_the_chosen_plan_fits_its_part() -> None:
    for kind in ("cpu", "cuda", "npu"):
        for share in (10.0, 30.0, 120.0):
            plan = timed_plan(kind, share)
            if plan != TimedPlan(WIDTHS[0], GEMM_ROWS[:2]):
                # GEMMs: 3 pairs per row count; MLPs: float + 2 int8 pairs per token count; 4 study pairs.
                pairs = 3 * len(plan.gemm_rows) + 3 * 2 + 4
                costliest = max(2.0 * max(plan.gemm_rows) * plan.width**2, 4.0 * 256 * plan.width**2)
                assert pair_seconds(kind, costliest) <= share / pairs


def test_cases_cover_three_gemm_dtypes_mlp_pairs_and_two_studies() -> None:
    cases = int8_cases(Device(), 10.0 + TORCHAO_IMPORT_S)
    gemm = [case for case in cases if case.options["op"] == "gemm"]
    mlp = [case for case in cases if case.options["op"] == "mlp"]
    assert {case.dtype for case in gemm} == {"int8", "fp32", "bf16"} and len(gemm) % 3 == 0
    assert {case.dtype for case in mlp} == {"int8", "fp32"}  # fp32 is the CPU's served dtype
    assert all(case.options["float_dtype"] == "fp32" for case in mlp if case.dtype == "int8")
    # One width sizes both: an MLP d/2 -> 2d -> d/2 at t tokens costs two (t x d) @ (d x d) GEMMs.
    by_rows = {case.shape["m"]: case.flops for case in gemm}
    assert all(case.flops == 2 * by_rows[case.shape["tokens"]] for case in mlp)
    assert sorted(case.options["op"] for case in cases if case.options["op"].endswith("qdq")) == [
        "layernorm_qdq",
        "weight_qdq",
    ]


# --- builders ----------------------------------------------------------------------------------


def _cuda_like() -> Device:
    device = Device()
    device.kind = "cuda"  # only the kind is read by the shape check
    return device


def test_int_mm_shape_limits_on_cuda_are_a_skip_with_the_reason() -> None:
    small = CaseSpec(dtype="int8", shape={"m": 16, "n": 512, "k": 512})
    with pytest.raises(Unsupported, match="m > 16"):
        _check_int_mm_shape(small, _cuda_like())
    with pytest.raises(Unsupported, match="multiples of 8"):
        _check_int_mm_shape(CaseSpec(dtype="int8", shape={"m": 32, "n": 100, "k": 512}), _cuda_like())
    _check_int_mm_shape(CaseSpec(dtype="int8", shape={"m": 256, "n": 512, "k": 512}), _cuda_like())
    _check_int_mm_shape(small, Device())  # the CPU kernel has no such limit


def test_a_missing_torchao_or_config_is_unsupported(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(Unsupported, match="torchao not available: .*NoSuchConfig"):
        _torchao_quantizer("NoSuchConfig")
    monkeypatch.setitem(sys.modules, "torchao", None)  # what an import that fails looks like
    with pytest.raises(Unsupported, match="torchao not available: ModuleNotFoundError"):
        _torchao_quantizer("Int8WeightOnlyConfig")


def _study_metrics(build, op: str) -> dict[str, float]:
    case = next(case for case in int8_cases(Device(), 1.0) if case.options["op"] == op)
    study = build(case, Device())
    played = study.play()
    assert len(played.step_seconds) == 1  # one pass: an accuracy study, not a speed one
    reference, tolerance = study.reference(), case.tolerance
    assert tolerance is not None
    error = (torch.as_tensor(played.output).double() - reference).abs()
    assert bool((error <= tolerance.atol + tolerance.rtol * reference.abs()).all())
    return {name: metric.value for name, metric in played.metrics.items()}


def test_per_channel_scales_keep_small_channels_that_a_per_tensor_scale_flattens() -> None:
    per_tensor = _study_metrics(weight_per_tensor, "weight_qdq")
    per_channel = _study_metrics(weight_per_channel, "weight_qdq")
    assert per_channel["max_rel_error"] <= 0.5 / 127 * 1.001  # half a step of each row's own scale
    assert per_tensor["rel_rmse"] > 10 * per_channel["rel_rmse"]
    assert per_tensor["worst_row_rel_rmse"] > 0.5  # some channel is mostly lost
    assert WEIGHT_STUDY_TOLERANCE.atol == pytest.approx(0.5 / 127, rel=1e-2)


def test_quantizing_a_layernorm_input_costs_far_more_than_its_output() -> None:
    quantized_input = _study_metrics(layernorm_input, "layernorm_qdq")
    quantized_output = _study_metrics(layernorm_output, "layernorm_qdq")
    for name in ERROR_METRICS:
        assert quantized_input[name] > 3 * quantized_output[name], name
    assert quantized_output["rel_rmse"] < 0.05 and quantized_input["rel_rmse"] > 0.1
    assert LAYERNORM_STUDY_TOLERANCE.rtol == 0.0


# --- quantization math, by hand ------------------------------------------------------------------

VALUES = torch.tensor([[0.8, -0.3, 0.2], [-2.0, 0.1, 0.0]])


def test_per_tensor_codes_by_hand() -> None:
    scale = symmetric_scale(VALUES, "per-tensor")
    assert float(scale) == pytest.approx(2.0 / 127)
    # 0.8 * 63.5 = 50.8, -0.3 * 63.5 = -19.05, 0.2 * 63.5 = 12.7, 0.1 * 63.5 = 6.35
    assert quantize(VALUES, scale).tolist() == [[51, -19, 13], [-127, 6, 0]]


def test_per_channel_codes_by_hand() -> None:
    scale = symmetric_scale(VALUES, "per-channel")
    assert scale.flatten().tolist() == pytest.approx([0.8 / 127, 2.0 / 127])
    # row 0 at 127/0.8 = 158.75 per unit: -0.3 -> -47.625, 0.2 -> 31.75
    codes = quantize(VALUES, scale)
    assert codes.dtype == torch.int8 and codes.tolist() == [[127, -48, 32], [-127, 6, 0]]
    assert dequantize(codes, scale)[0].tolist() == pytest.approx([0.8, -48 * 0.8 / 127, 32 * 0.8 / 127])


def test_fake_quantize_errs_at_most_half_a_step_and_survives_zero_rows() -> None:
    values = torch.cat([torch.randn(4, 64, generator=torch.Generator().manual_seed(0)), torch.zeros(1, 64)])
    for granularity in ("per-tensor", "per-channel"):
        step = symmetric_scale(values, granularity)
        error = (fake_quantize(values, granularity) - values).abs()
        assert bool((error <= step / 2 * (1 + 1e-5)).all())
        assert fake_quantize(values, granularity)[-1].abs().max() == 0.0


def test_codes_are_clamped_to_the_symmetric_range() -> None:
    assert quantize(torch.tensor([300.0, -300.0]), torch.tensor(1.0)).tolist() == [127, -127]


# --- error metrics, by hand -------------------------------------------------------------------------


def test_row_relative_errors_by_hand() -> None:
    reference = torch.tensor([[1.0, 2.0], [0.5, -0.5]], dtype=torch.float64)
    output = torch.tensor([[1.1, 2.0], [0.5, -0.4]])
    metrics = row_relative_errors(output, reference)
    # rows: max |err| / max |ref| = 0.1/2, 0.1/0.5; ||err|| / ||ref|| = 0.1/sqrt(5), 0.1/sqrt(0.5)
    assert metrics["max_rel_error"].value == pytest.approx(0.2, rel=1e-6)
    assert metrics["rel_rmse"].value == pytest.approx(math.sqrt((0.01 / 5 + 0.01 / 0.5) / 2), rel=1e-6)
    assert metrics["worst_row_rel_rmse"].value == pytest.approx(0.1 / math.sqrt(0.5), rel=1e-6)
    assert {metric.unit for metric in metrics.values()} == {"ratio"}


# --- speedup pairing ---------------------------------------------------------------------------------


def _case(
    implementation: str,
    dtype: str,
    median_s: float | None,
    *,
    baseline: bool = False,
    shape: dict[str, int] | None = None,
    options: dict[str, str] | None = None,
    status: str = "ok",
    device: str = "cpu",
) -> ProbeCase:
    key = CaseKey(
        probe="int8",
        implementation=implementation,
        dtype=dtype,
        shape=shape or {"m": 256, "n": 512, "k": 512},
        layout="row-major",
        device=device,
        options=options or {"op": "gemm"},
    )
    timing = None
    if median_s is not None:
        samples = [median_s] * 10
        timing = Measurement.from_samples(samples, stop_reason="converged", warmup_calls=1)
    return ProbeCase(key=key, status=status, timing=timing, baseline=baseline)


MLP_SHAPE = {"tokens": 16, "d_model": 256, "d_hidden": 1024}


def test_gemm_int8_is_compared_with_the_fastest_float_baseline_or_the_one_asked_for() -> None:
    int8 = _case("torch._int_mm", "int8", 0.5e-3)
    fp32 = _case("torch.matmul", "fp32", 2e-3, baseline=True)
    cases = [int8, fp32, _case("torch.matmul", "bf16", 1e-3, baseline=True)]
    assert int8_speedups(cases) == {int8.key.case_id: pytest.approx(2.0)}
    assert int8_speedups(cases, versus="fp32") == {int8.key.case_id: pytest.approx(4.0)}
    assert int8_speedups(cases, versus="fp16") == {}


def test_an_mlp_int8_case_pairs_with_its_own_float_dtype() -> None:
    mlp, int8_mlp = {"op": "mlp"}, {"op": "mlp", "float_dtype": "fp32"}
    weight_only = _case("torchao.int8_weight_only", "int8", 6e-3, shape=MLP_SHAPE, options=int8_mlp)
    dynamic = _case("torchao.int8_dynamic", "int8", 1.5e-3, shape=MLP_SHAPE, options=int8_mlp)
    cases = [
        _case("torch.nn.Linear", "fp32", 3e-3, baseline=True, shape=MLP_SHAPE, options=mlp),
        _case("torch.nn.Linear", "bf16", 1e-4, baseline=True, shape=MLP_SHAPE, options=mlp),  # not its dtype
        weight_only,
        dynamic,
    ]
    assert int8_speedups(cases) == {
        weight_only.key.case_id: pytest.approx(0.5),
        dynamic.key.case_id: pytest.approx(2.0),
    }


def test_cases_without_a_timed_twin_get_no_speedup() -> None:
    cases = [
        _case("torch._int_mm", "int8", 1e-3),  # its only baselines are untimed, elsewhere or not baselines
        _case("torch.matmul", "fp32", None, baseline=True, status="not-timed"),
        _case("torch.matmul", "bf16", 1e-3, baseline=False),
        _case("torch.matmul", "fp32", 1e-3, baseline=True, device="cuda"),
        _case("torch.matmul", "fp32", 1e-3, baseline=True, shape={"m": 16, "n": 512, "k": 512}),
        _case("torch._int_mm", "int8", None, shape={"m": 16, "n": 512, "k": 512}, status="failed"),
        _case("qdq.per-tensor", "int8", 1e-4, shape={"out_features": 8}, options={"op": "weight_qdq"}),
    ]
    assert int8_speedups(cases) == {}
