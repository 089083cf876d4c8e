"""Readings off probe cases, facts labelled by hardware family, and what counts as usable or proxy."""

from __future__ import annotations

import pytest
from recommendation_builders import (
    attention_cases,
    case,
    dynamic_cases,
    environment,
    evidence,
    gemm_cases,
    int8_cases,
)

from advisor.recommendation.facts import evidence_facts, is_portable, quality_counts
from advisor.recommendation.readings import read_cases
from probes.attention.report import attention_readings
from probes.dynamic.report import dynamic_readings
from probes.environment.family import device_family, environment_family
from probes.gemm.report import gemm_readings
from probes.int8.report import int8_readings


def _values(readings):
    return {reading.name: round(reading.value, 3) for reading in readings}


@pytest.mark.parametrize(
    ("family", "expected"),
    [("x86-cpu", "x86-cpu"), ("arm-cpu", "arm-cpu"), ("nvidia-gpu", "nvidia-gpu"), ("ascend-npu", "ascend-npu")],
)
def test_environment_family(family, expected):
    assert environment_family(environment(family)) == expected


def test_a_cpu_case_on_a_gpu_machine_is_cpu_evidence():
    gpu_machine = environment("nvidia-gpu")
    assert device_family("cuda", gpu_machine) == "nvidia-gpu"
    assert device_family("cuda:1", gpu_machine) == "nvidia-gpu"
    assert device_family("cpu", gpu_machine) == "x86-cpu"
    assert device_family("cpu", environment("ascend-npu")) == "arm-cpu"
    assert device_family("npu", environment("ascend-npu")) == "ascend-npu"
    assert device_family("xpu", gpu_machine) is None


def test_gemm_readings_dtype_speedup_and_triton_parity():
    readings = gemm_readings(gemm_cases(0.5, triton_ratio=0.8))
    assert _values(readings) == {"gemm_bf16_speedup": 0.5, "triton_vs_vendor_gemm": 0.8}
    bf16 = readings[0]
    assert bf16.figure == "bf16 0.50x fp32 (geometric mean over 2 shapes; decode 0.50x; prefill 0.50x)"
    assert len(bf16.case_ids) == 4 and all("torch.matmul" in case_id for case_id in bf16.case_ids)


def test_attention_readings_per_implementation_and_the_flattest_fused():
    readings = attention_readings(attention_cases({"naive": 2.0, "sdpa.flash": 1.0, "sdpa.cudnn": 1.8}))
    assert _values(readings) == {
        "naive_attention_memory_growth": 2.0,
        "sdpa_cudnn_attention_memory_growth": 1.8,
        "sdpa_flash_attention_memory_growth": 1.0,
        "fused_attention_memory_growth": 1.0,
    }
    assert readings[-1].figure.startswith("sdpa.flash attention memory ~N^1.00")


def test_int8_prefers_the_whole_layer_over_the_raw_kernel():
    shape = {"m": 16, "n": 512, "k": 512}
    kernel = [
        case("int8", "torch.matmul", "fp32", shape, 2e-3, baseline=True, op="gemm"),
        case("int8", "torch._int_mm", "int8", shape, 1e-3, op="gemm"),
    ]
    values = _values(int8_readings(int8_cases(0.7, max_rel_error=0.02) + kernel))
    assert values["int8_speedup"] == 0.7 and values["int8_kernel_speedup"] == 2.0
    assert values["int8_max_rel_error"] == 0.02
    assert _values(int8_readings(kernel))["int8_speedup"] == 2.0  # no layer path measured: the kernel stands in


def test_int8_qdq_studies():
    values = _values(int8_readings(int8_cases(1.0, qdq=True)))
    assert values["int8_per_tensor_rel_rmse"] == 0.36 and values["int8_per_channel_rel_rmse"] == 0.007
    assert values["layernorm_input_int8_rel_rmse"] == 0.23 and values["layernorm_output_int8_rel_rmse"] == 0.03


def test_dynamic_readings():
    values = _values(dynamic_readings(dynamic_cases(25.0, limit_hit=True)))
    assert values["static_compile_recompiles_per_100"] == 25.0 and values["static_compile_limit_hit"] == 1.0
    assert values["bucketed_compile_padding_waste_pct"] == 20.0 and values["dynamic_compile_total_s"] == 2.0
    assert "eager_recompiles_per_100" not in values and "dynamic_compile_padding_waste_pct" not in values


def test_read_cases_gives_each_probe_its_own_cases():
    names = {reading.name for reading in read_cases(gemm_cases(2.0) + dynamic_cases(1.0))}
    assert "gemm_bf16_speedup" in names and "static_compile_recompiles_per_100" in names
    assert read_cases([]) == []


@pytest.mark.parametrize(
    ("name", "portable"),
    [
        ("gemm_bf16_speedup", False),
        ("int8_speedup", False),
        ("dynamic_compile_total_s", False),
        ("triton_vs_vendor_gemm", False),
        ("naive_attention_memory_growth", True),
        ("int8_max_rel_error", True),
        ("static_compile_recompiles_per_100", True),
        ("static_compile_limit_hit", True),
        ("bucketed_compile_padding_waste_pct", True),
        ("layernorm_input_int8_rel_rmse", True),
    ],
)
def test_speed_is_hardware_specific_and_algorithms_are_portable(name, portable):
    assert is_portable(name) is portable


def test_target_facts_are_used_and_labelled():
    facts = evidence_facts([evidence(gemm_cases(0.5), "x86-cpu")], "x86-cpu")
    fact = facts.usable("gemm_bf16_speedup")
    assert fact is not None and fact.on_target and fact.hardware == "x86-cpu"
    assert not facts.proxy and facts.timed_on_target
    assert facts.observed() == {"evidence.gemm_bf16_speedup": 0.5}


def test_proxy_speed_is_reported_but_never_usable_while_portable_facts_are():
    cases = gemm_cases(0.5) + attention_cases({"naive": 2.0, "sdpa.flash": 1.0})
    facts = evidence_facts([evidence(cases, "x86-cpu")], "nvidia-gpu")
    assert facts.proxy and not facts.timed_on_target
    assert facts.usable("gemm_bf16_speedup") is None
    assert facts.unapplied_proxy("gemm_bf16_speedup").value == 0.5
    growth = facts.usable("naive_attention_memory_growth")
    assert growth is not None and not growth.on_target and growth.portable
    assert "evidence.gemm_bf16_speedup" not in facts.observed()


def test_the_target_fact_wins_over_a_proxy_fact():
    cpu = evidence(gemm_cases(0.5), "x86-cpu")
    gpu = evidence(gemm_cases(3.0, device="cuda"), "nvidia-gpu")
    for order in ([cpu, gpu], [gpu, cpu]):
        facts = evidence_facts(order, "nvidia-gpu")
        assert facts.usable("gemm_bf16_speedup").value == pytest.approx(3.0)
        assert facts.unapplied_proxy("gemm_bf16_speedup") is None
    sources = evidence_facts([cpu, gpu], "nvidia-gpu").sources
    assert [(source.hardware, source.on_target) for source in sources] == [("x86-cpu", False), ("nvidia-gpu", True)]


def test_cpu_cases_measured_on_a_gpu_machine_are_proxy_for_the_gpu():
    facts = evidence_facts([evidence(gemm_cases(0.5, device="cpu"), "nvidia-gpu")], "nvidia-gpu")
    assert facts.usable("gemm_bf16_speedup") is None and facts.proxy


def test_quality_counts():
    cases = [
        case("gemm", "a", "fp32", {"m": 1}, 1.0),
        case("gemm", "b", "fp32", {"m": 1}, 1.0, noisy=True),
        case("gemm", "c", "fp32", {"m": 1}, status="failed"),
        case("gemm", "d", "fp32", {"m": 1}, status="skipped"),
        case("gemm", "e", "fp32", {"m": 1}),
    ]
    counts = quality_counts(cases)
    assert (counts.ok, counts.noisy, counts.failed, counts.skipped, counts.not_timed) == (2, 1, 1, 1, 1)
    assert counts.attempted == 4


def test_readings_of_the_real_cpu_suite(cpu_suite):
    facts = evidence_facts([cpu_suite], "x86-cpu")
    assert facts.usable("gemm_bf16_speedup").value < 1.0  # bf16 lost to fp32 on this 2-core Xeon overall
    assert facts.usable("naive_attention_memory_growth").value == pytest.approx(2.0, abs=0.05)
    assert facts.usable("fused_attention_memory_growth").value < 1.5
    assert facts.usable("int8_speedup").value < 1.0 < facts.usable("int8_kernel_speedup").value
    assert facts.usable("static_compile_recompiles_per_100").value > 4
    assert facts.quality.noisy > 0 and facts.quality.failed == 0
