"""The GEMM probe: a short CPU run, its sizing, its builders' skip reasons and the dtype comparison.

Timings on this shared machine are noise: nothing here checks speed, only structure, numerics,
statuses with their reasons, and costs and ratios computed by hand.
"""

from __future__ import annotations

import inspect

import pytest
import torch

from probes.gemm import probe as gemm_probe
from probes.gemm.inputs import dtype_unsupported_reason, fp8_unsupported_reason, matmul_inputs
from probes.gemm.probe import (
    compiled_on_cpu,
    gemm_cases,
    scaled_mm,
    shape_cases,
    torch_compile,
    torch_matmul,
    triton_default_tile,
)
from probes.gemm.report import dtype_speedups
from probes.gemm.sizing import (
    ASSUMPTIONS,
    DECODE_ROWS,
    PREFILL_ROWS,
    DeviceAssumptions,
    GemmShape,
    gemm_shapes,
    pair_cost_s,
    shape_count,
)
from probes.gemm.triton_tiles import DEFAULT_TILE, INTERPRETER_UNTIMED, LARGE_TILES, SKINNY_TILE, interpreter_checks
from probes.harness.device import Device
from probes.harness.session import starved
from probes.models import CaseKey, Evidence, Measurement, ProbeCase
from probes.registry import Bench, CaseSpec, Unsupported, load_probe
from probes.runner import run_probes

IMPLEMENTATIONS = {
    "torch.matmul",
    "torch.compile",
    "triton.matmul-64x64x32-w4-s3",
    "triton.matmul-128x256x64-w8-s3",
    "triton.matmul-128x128x32-w4-s4",
    "triton.matmul-32x64x32-w2-s5",
    "torch._scaled_mm",
}
CUDA_ONLY = {"triton.matmul-128x256x64-w8-s3", "triton.matmul-128x128x32-w4-s4", "triton.matmul-32x64x32-w2-s5"}
TRITON_ON_CPU = "triton.matmul-64x64x32-w4-s3"


@pytest.fixture(scope="module")
def evidence() -> Evidence:
    # 25 s, not 15: beside two CPU burners a 15 s budget left no time for the Triton interpreter and torch.compile
    # cases these tests check (the guide: give real probes what they need)
    return run_probes(["gemm"], budget_s=25, device="cpu")


def _by_implementation(evidence: Evidence, name: str) -> list[ProbeCase]:
    return [case for case in evidence.cases if case.key.implementation == name]


# --- the probe run -----------------------------------------------------------------------------


def test_every_implementation_is_planned_and_none_fails(evidence: Evidence) -> None:
    run = evidence.probe_runs[0]
    assert run.probe == "gemm" and run.status == "ok", run.reason
    assert {case.key.implementation for case in evidence.cases} == IMPLEMENTATIONS
    assert {registered.name for registered in load_probe("gemm").implementations} == IMPLEMENTATIONS
    assert all(case.status != "failed" for case in evidence.cases), [
        (case.key.case_id, case.reason) for case in evidence.cases if case.status == "failed"
    ]
    # A busy machine may leave a case without a timed sample, never with another reason.
    matmul = _by_implementation(evidence, "torch.matmul")
    assert {case.key.dtype for case in matmul} == {"fp32", "fp16", "bf16"}
    assert any(case.status == "ok" for case in matmul) or all(starved(case) for case in matmul)
    for case in matmul:
        assert case.status == "ok" or "time share" in (case.reason or ""), case.reason


def test_cases_are_square_decode_and_prefill_gemms(evidence: Evidence) -> None:
    kinds = {case.key.options["kind"] for case in evidence.cases}
    assert kinds == {"square", "decode", "prefill"}
    for case in evidence.cases:
        m, n, k = (case.key.shape[name] for name in ("m", "n", "k"))
        kind = case.key.options["kind"]
        assert list(case.key.shape) == ["m", "n", "k"]
        assert (kind == "square") == (m == n == k) or kind == "prefill"
        assert kind != "decode" or m in DECODE_ROWS
        assert kind != "prefill" or (m in PREFILL_ROWS and n == k)


def test_checked_cases_pass_and_ok_cases_carry_metrics_with_units(evidence: Evidence) -> None:
    peak = evidence.environment.peak_for("cpu")
    for case in evidence.cases:
        if case.numeric is not None:
            assert case.numeric.passed, (case.key.case_id, case.numeric.detail)
        if case.status != "ok":
            continue
        assert case.timing is not None and case.numeric is not None
        m, n, k = (case.key.shape[name] for name in ("m", "n", "k"))
        tflops = case.metrics["tflops"]
        assert tflops.unit == "TFLOP/s"
        assert tflops.value == pytest.approx(2.0 * m * n * k / case.timing.stats.median / 1e12)
        assert case.metrics["gbps"].unit == "GB/s" and case.metrics["gbps"].value > 0
        if peak is not None and peak.tflops.get(case.key.dtype):
            assert case.metrics["pct_of_peak"].unit == "%"


def test_triton_is_checked_by_the_interpreter_on_the_small_fp32_and_fp16_squares(evidence: Evidence) -> None:
    # A busy host may starve a case (its time share ran out, said in its reason): the one other outcome allowed
    triton = _by_implementation(evidence, TRITON_ON_CPU)
    interpreted = [case for case in triton if case.status == "not-timed" and not starved(case)]
    squares = [case for case in triton if case.key.options["kind"] == "square" and case.key.shape["m"] <= 128]
    assert {case.key.dtype for case in interpreted} == {"fp16", "fp32"} or any(starved(case) for case in squares)
    for case in interpreted:
        assert case.reason == INTERPRETER_UNTIMED and case.timing is None
        assert case.numeric is not None and case.numeric.passed
        assert case.key.options["kind"] == "square" and case.key.shape["m"] <= 128
    others = [case for case in triton if case not in interpreted and not starved(case)]
    assert all(case.status == "skipped" and "interpreter" in (case.reason or "") for case in others)
    assert others or all(starved(case) for case in triton if case not in interpreted)
    for name in CUDA_ONLY:
        assert all(case.reason == "not enabled on cpu" for case in _by_implementation(evidence, name))


def test_torch_compile_runs_on_two_cpu_cases_and_records_its_compile_time(evidence: Evidence) -> None:
    compiled = _by_implementation(evidence, "torch.compile")
    # a busy host may starve cases before they are reached (their reason says so): the one other outcome allowed
    busy = any(starved(case) for case in compiled)
    over_budget = [case for case in compiled if (case.reason or "").startswith("unsupported: compile budget")]
    ran = [case for case in compiled if case not in over_budget and not starved(case)]
    assert all(case.key.dtype == "bf16" for case in ran) and (len(ran) == 2 or busy)
    for case in ran:
        assert case.metrics["compile_s"].unit == "s" and case.metrics["compile_s"].value > 0
    assert (over_budget or busy) and all(case.status == "skipped" for case in over_budget)


def test_fp8_is_one_skipped_case_with_its_reason_on_cpu(evidence: Evidence) -> None:
    fp8 = [case for case in evidence.cases if case.key.dtype == "fp8"]
    assert len(fp8) == 1 and fp8[0].key.implementation == "torch._scaled_mm"
    assert fp8[0].status == "skipped" and "only on CUDA and ROCm GPUs" in (fp8[0].reason or "")
    assert fp8[0].key.layout == "a-row-major,b-col-major" and fp8[0].key.options["scaling"] == "per-tensor"


def test_case_ids_are_stable_across_two_plannings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gemm_probe, "warm_up_compiler", lambda device: None)  # seconds, and not what is tested

    def planned_ids(share_s: float) -> list[str]:
        return [case.key("gemm", "impl", "cpu").case_id for case in gemm_cases(Device(), share_s)]

    assert planned_ids(30.0) == planned_ids(30.0)
    assert len(set(planned_ids(30.0))) == len(planned_ids(30.0))
    # The CPU's two torch.compile cases come last, where the harness's parts have grown.
    assert [compiled_on_cpu(case) for case in gemm_cases(Device(), 30.0)][-2:] == [True, True]


# --- sizing ------------------------------------------------------------------------------------

ROUND = DeviceAssumptions(
    flop_per_s=1e9,
    reference_flop_per_s=1e9,
    bytes_per_s=1e9,
    call_overhead_s=0.0,
    input_s_per_element=0.0,
    output_s_per_element=0.0,
    fixed_pair_s=0.0,
    compiler_startup_s=0.0,
    pairs_per_shape=1,
    extra_pairs=0,
    square_sizes=(100,),
    widths=(1000,),
)


def test_pair_cost_by_hand() -> None:
    # Compute-bound: 2e6 flops -> 2 ms a call; 10 calls, 0.1 s warmup, 2 ms for the float64 reference.
    assert pair_cost_s(GemmShape("square", 100, 100, 100), ROUND) == pytest.approx(0.1 + 10 * 0.002 + 0.002)
    # Memory-bound decode: 4 bytes x (1000 + 10^6 + 1000) elements = 4.008 ms a call, above its 2 ms of flops.
    assert pair_cost_s(GemmShape("decode", 1, 1000, 1000), ROUND) == pytest.approx(0.1 + 10 * 0.004008 + 0.002)
    cpu = ASSUMPTIONS["cpu"]
    shape = GemmShape("square", 128, 128, 128)
    expected = (
        cpu.fixed_pair_s
        + 0.1
        + 10 * (2 * 128**3 / cpu.flop_per_s + cpu.call_overhead_s)
        + 2 * 128**3 / cpu.reference_flop_per_s
        + 2 * 128**2 * cpu.input_s_per_element
        + 128**2 * cpu.output_s_per_element
    )
    assert pair_cost_s(shape, cpu) == pytest.approx(expected)


def test_shape_count_by_hand() -> None:
    cpu = ASSUMPTIONS["cpu"]
    per_pair = cpu.fixed_pair_s + 0.1
    fixed = cpu.compiler_startup_s + cpu.extra_pairs * per_pair
    per_shape = cpu.pairs_per_shape * per_pair
    assert shape_count("cpu", fixed + 4.5 * per_shape) == 4
    assert shape_count("cpu", 0.5) == 3  # a tiny share still gets three shapes, at their smallest
    assert shape_count("cpu", 1000.0) == 5


def test_a_tiny_share_gets_the_smallest_shapes_cheapest_first() -> None:
    assert gemm_shapes("cpu", 0.5) == [
        GemmShape("decode", 1, 256, 256),
        GemmShape("square", 128, 128, 128),
        GemmShape("prefill", 512, 256, 256),
    ]
    assert [shape.n for shape in gemm_shapes("cuda", 0.5)] == [1024, 512, 1024]


def test_more_time_gets_wider_models_and_every_role() -> None:
    def model_width(share_s: float) -> int:
        return max(shape.n for shape in gemm_shapes("cpu", share_s) if shape.kind != "square")

    widths = [model_width(share) for share in (5, 30, 120, 600)]
    assert widths == sorted(widths) and widths[-1] > widths[0]
    shapes = gemm_shapes("cuda", 600.0)
    assert {(shape.kind, shape.m) for shape in shapes if shape.kind == "decode"} == {("decode", 1), ("decode", 16)}
    assert all(shape.n == 4096 for shape in shapes if shape.kind != "square")  # the model width on GPUs
    assert len([shape for shape in shapes if shape.kind == "square"]) == 2
    for kind in ("cpu", "cuda", "npu"):
        for share in (5.0, 30.0, 300.0):
            chosen = gemm_shapes(kind, share)
            assert [shape.flops for shape in chosen] == sorted(shape.flops for shape in chosen)
            assert len({(shape.m, shape.n, shape.k) for shape in chosen}) == len(chosen)


def test_each_chosen_shape_fits_its_part_unless_it_is_the_smallest() -> None:
    for kind in ("cpu", "cuda", "npu"):
        assumed = ASSUMPTIONS[kind]
        for share in (20.0, 60.0, 300.0):
            usable = share - assumed.compiler_startup_s - assumed.extra_pairs * (assumed.fixed_pair_s + 0.1)
            part = usable / (shape_count(kind, share) * assumed.pairs_per_shape)
            for shape in gemm_shapes(kind, share):
                # What is taken when nothing fits: the first square, or the narrowest model at m=512 or less.
                if shape.kind == "square":
                    smallest = shape.n == assumed.square_sizes[0]
                else:
                    smallest = shape.n == assumed.widths[0] and shape.m <= PREFILL_ROWS[0]
                assert smallest or pair_cost_s(shape, assumed) <= part, (kind, share, shape)


def test_case_work_and_traffic_by_hand() -> None:
    cases = shape_cases(GemmShape("decode", 16, 256, 256))
    assert [case.dtype for case in cases] == ["fp8", "fp32", "fp16", "bf16"]
    assert all(case.flops == 2.0 * 16 * 256 * 256 for case in cases)
    by_dtype = {case.dtype: case.bytes_moved for case in cases}
    elements = 16 * 256 + 256 * 256 + 16 * 256  # a, b and c
    fp8_bytes = 16 * 256 + 256 * 256 + 2 * 16 * 256  # one byte per input element, bf16 out
    assert by_dtype == {"fp8": fp8_bytes, "fp32": 4 * elements, "fp16": 2 * elements, "bf16": 2 * elements}
    without_fp8 = shape_cases(GemmShape("decode", 16, 256, 256), with_fp8=False)
    assert [case.dtype for case in without_fp8] == ["fp32", "fp16", "bf16"]


# --- builders and helpers ----------------------------------------------------------------------


def _case(dtype: str, kind: str, m: int, n: int, k: int) -> CaseSpec:
    shape = {"m": m, "n": n, "k": k}
    return CaseSpec(dtype=dtype, shape=shape, layout="row-major", options={"kind": kind})  # type: ignore[arg-type]


def test_inputs_are_scaled_for_outputs_of_order_one() -> None:
    a, b = matmul_inputs(_case("fp32", "prefill", 512, 256, 1024), Device())
    assert a.shape == (512, 1024) and b.shape == (1024, 256) and a.dtype == torch.float32
    assert 0.8 < float((a @ b).std()) < 1.2
    a16, _ = matmul_inputs(_case("bf16", "prefill", 512, 256, 1024), Device())
    assert a16.dtype == torch.bfloat16 and torch.equal(a16, a.to(torch.bfloat16))  # same seed, any dtype


def test_cpu_skip_reasons() -> None:
    cpu = Device()
    with pytest.raises(Unsupported, match="compile budget"):
        torch_compile(_case("fp32", "prefill", 512, 256, 256), cpu)
    with pytest.raises(Unsupported, match="bf16"):
        triton_default_tile(_case("bf16", "square", 128, 128, 128), cpu)
    with pytest.raises(Unsupported, match="interpreter"):
        triton_default_tile(_case("fp32", "prefill", 512, 256, 256), cpu)
    fp8 = CaseSpec(dtype="fp8", shape={"m": 16, "n": 256, "k": 256}, options={"kind": "decode"})
    with pytest.raises(Unsupported, match="only on CUDA and ROCm GPUs, not on cpu"):
        scaled_mm(fp8, cpu)
    assert fp8_unsupported_reason(cpu) is not None
    assert all(dtype_unsupported_reason(dtype, cpu) is None for dtype in ("fp32", "fp16", "bf16"))


def test_the_interpreted_triton_check_matches_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)  # the builder sets it; restored afterwards
    case = _case("fp16", "square", 128, 128, 128)
    bench = triton_default_tile(case, Device())
    assert isinstance(bench, Bench) and bench.untimed == INTERPRETER_UNTIMED and bench.reference is not None
    error = (torch.as_tensor(bench.run()).double() - bench.reference()).abs().max()
    assert float(error) < 1e-2
    plain = torch_matmul(case, Device())
    assert isinstance(plain, Bench) and plain.untimed is None


def test_which_cases_the_interpreter_and_the_cpu_compiler_take() -> None:
    assert interpreter_checks(_case("fp32", "square", 128, 128, 128))
    assert interpreter_checks(_case("fp16", "square", 128, 128, 128))
    assert not interpreter_checks(_case("fp32", "square", 256, 256, 256))
    assert not interpreter_checks(_case("fp32", "decode", 1, 128, 128))
    assert compiled_on_cpu(_case("bf16", "prefill", 512, 256, 256))
    assert compiled_on_cpu(_case("bf16", "decode", 1, 256, 256))
    assert not compiled_on_cpu(_case("bf16", "decode", 16, 256, 256))
    assert not compiled_on_cpu(_case("fp32", "prefill", 512, 256, 256))


def test_swept_tiles_are_still_matmul_configs() -> None:
    from probes.kernels.triton_matmul import MATMUL_CONFIGS, triton_matmul

    assert all(tile in MATMUL_CONFIGS for tile in (DEFAULT_TILE, *LARGE_TILES, SKINNY_TILE))
    defaults = {name: parameter.default for name, parameter in inspect.signature(triton_matmul).parameters.items()}
    assert all(defaults[name] == value for name, value in DEFAULT_TILE.items())


# --- analysis ----------------------------------------------------------------------------------


def _timed(dtype: str, median_s: float, *, layout: str = "row-major", status: str = "ok") -> ProbeCase:
    key = CaseKey(
        probe="gemm",
        implementation="torch.matmul",
        dtype=dtype,  # type: ignore[arg-type]
        shape={"m": 512, "n": 256, "k": 256},
        layout=layout,
        device="cpu",
        options={"kind": "prefill"},
    )
    samples = [median_s] * 10
    timing = Measurement.from_samples(samples, stop_reason="converged", warmup_calls=1)
    return ProbeCase(key=key, status=status, timing=timing if status == "ok" else None)  # type: ignore[arg-type]


def test_dtype_speedups_against_fp32_by_hand() -> None:
    cases = [
        _timed("fp32", 0.002),
        _timed("bf16", 0.001),
        _timed("fp16", 0.004),
        _timed("fp8", 0.0005, layout="a-row-major,b-col-major"),  # no fp32 twin: left out
    ]
    speedups = {speedup.dtype: speedup for speedup in dtype_speedups(cases)}
    assert set(speedups) == {"bf16", "fp16"}
    assert speedups["bf16"].speedup == pytest.approx(2.0) and not speedups["bf16"].slower
    assert speedups["fp16"].speedup == pytest.approx(0.5) and speedups["fp16"].slower
    assert speedups["bf16"].kind == "prefill" and speedups["bf16"].baseline_dtype == "fp32"
    assert dtype_speedups([_timed("fp32", 0.002, status="not-timed"), _timed("bf16", 0.001)]) == []


@pytest.mark.parametrize(
    ("hip", "arch", "capability", "expected"),
    [
        (None, None, (9, 0), "float8_e4m3fn"),  # H100 / H200
        (None, None, (8, 9), "float8_e4m3fn"),  # L40S
        (None, None, (8, 0), None),  # A100: no fp8 tensor cores
        ("6.2.41133", "gfx942:sramecc+:xnack-", None, "float8_e4m3fnuz"),  # MI300X, as torch.cuda reports it on ROCm
        ("6.2.41133", "gfx90a:sramecc+:xnack-", None, None),  # MI250X: not charted
    ],
)
def test_the_fp8_format_follows_the_gpu(hip, arch, capability, expected) -> None:
    from probes.gemm.inputs import fp8_format

    name, why = fp8_format(hip, arch, capability)
    assert name == expected and why


def test_fnuz_inputs_scale_to_their_own_largest_value() -> None:
    from probes.gemm.inputs import fp8_inputs

    case = CaseSpec(dtype="fp8", shape={"m": 16, "n": 32, "k": 64}, options={"kind": "decode"})
    a8, b8, scale_a, scale_b = fp8_inputs(case, Device(), torch.float8_e4m3fnuz)
    assert a8.dtype == b8.dtype == torch.float8_e4m3fnuz and b8.stride() == (1, 64)  # b column-major
    assert float(a8.float().abs().max()) == pytest.approx(240.0)  # e4m3fnuz's largest finite value, not e4m3fn's 448
    product = (a8.double() * scale_a.double()) @ (b8.double() * scale_b.double())
    assert product.shape == (16, 32) and torch.isfinite(product).all()
