"""The one-line findings printed under each probe's table, from hand-built cases."""

from __future__ import annotations

import pytest

from probes.attention.report import attention_findings
from probes.dynamic.report import dynamic_findings
from probes.gemm.report import gemm_findings
from probes.int8.report import int8_findings
from probes.models import CaseKey, Measurement, Metric, ProbeCase
from probes.reporting import probe_findings


def case(probe, implementation, dtype, shape, median=None, baseline=False, metrics=None, **options):
    timing = None
    if median is not None:
        samples = [median] * 5
        timing = Measurement.from_samples(samples, stop_reason="converged", warmup_calls=1)
    key = CaseKey(probe=probe, implementation=implementation, dtype=dtype, shape=shape, device="cpu", options=options)
    return ProbeCase(
        key=key,
        status="ok" if timing else "not-timed",
        timing=timing,
        baseline=baseline,
        metrics={name: Metric(value=value, unit=unit) for name, (value, unit) in (metrics or {}).items()},
    )


def test_gemm_reports_a_slower_dtype_and_the_best_share_of_peak():
    shapes = [{"m": 64, "n": 64, "k": 64}, {"m": 128, "n": 128, "k": 128}]
    cases = []
    for shape in shapes:
        cases.append(case("gemm", "torch.matmul", "fp32", shape, 1.0, metrics={"pct_of_peak": (50.0, "%")}))
        cases.append(case("gemm", "torch.matmul", "bf16", shape, 4.0))
    lines = gemm_findings(cases)
    assert lines[0] == "torch.matmul bf16 vs fp32: 0.25x (SLOWER; geometric mean over 2 shapes)"
    assert lines[1].startswith("best: torch.matmul fp32 64x64x64 at 50.0%")


def test_attention_growth_is_quadratic_for_naive_and_linear_for_flash():
    cases = []
    for seq in (256, 512, 1024):
        shape = {"batch": 1, "heads": 2, "seq": seq, "head_dim": 64}
        cases.append(
            case(
                "attention",
                "naive",
                "fp32",
                shape,
                seq**2 * 1e-9,
                metrics={"attn_extra_bytes": (8.0 * seq**2, "B")},
                causal=False,
            )
        )
        cases.append(
            case(
                "attention",
                "sdpa.flash",
                "fp32",
                shape,
                seq * 1e-6,
                metrics={"attn_extra_bytes": (64.0 * seq, "B")},
                causal=False,
            )
        )
    lines = attention_findings(cases)
    assert "naive fp32 causal=False: scratch memory ~ N^2.00, time ~ N^2.00" in lines
    assert "sdpa.flash fp32 causal=False: scratch memory ~ N^1.00, time ~ N^1.00" in lines


def test_int8_speedup_and_error_studies():
    shape = {"m": 16, "n": 64, "k": 64}
    cases = [
        case("int8", "torch.matmul", "fp32", shape, 2.0, baseline=True, op="gemm"),
        case("int8", "torch._int_mm", "int8", shape, 1.0, op="gemm"),
        case("int8", "qdq.per-channel", "int8", {"rows": 8, "cols": 8}, metrics={"rel_rmse": (0.0074, "ratio")}),
    ]
    assert int8_findings(cases) == [
        "torch._int_mm 16x64x64: 2.00x vs float",
        "qdq.per-channel: relative RMS error 0.74%",
    ]


def test_dynamic_lists_recompiles_and_the_limit():
    cases = [
        case(
            "dynamic",
            "eager",
            "fp32",
            {"width": 32},
            0.001,
            metrics={"total_s": (0.5, "s"), "recompiles": (0, "count")},
        ),
        case(
            "dynamic",
            "compile.static",
            "fp32",
            {"width": 32},
            0.001,
            metrics={
                "total_s": (9.0, "s"),
                "recompiles": (8, "count"),
                "compile_s": (7.5, "s"),
                "recompile_limit_hit": (1.0, "bool"),
            },
        ),
    ]
    assert dynamic_findings(cases) == [
        "eager: total 0.50 s",
        "compile.static: total 9.00 s, recompiles 8, compile 7.5 s, hit the recompile limit (fell back to eager)",
    ]


@pytest.mark.parametrize("probe", ["selftest", "unknown"])
def test_probes_without_a_reader_have_no_findings(probe):
    assert probe_findings(probe, [case(probe, "x", "fp32", {"n": 1}, 1.0)]) == []
