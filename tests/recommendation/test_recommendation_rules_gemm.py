"""GEMM rules: the vendor library, the dtype the evidence supports, Triton parity for tier 3."""

from __future__ import annotations

from recommendation_builders import evidence, gemm_cases, profile, rule_context

from advisor.recommendation.citations import proxy_speed_note
from advisor.recommendation.facts import evidence_facts
from advisor.recommendation.models import Choice
from advisor.recommendation.rules.gemm import (
    decide_gemm,
    default_gemm_dtype,
    dtype_switch,
    gemm_dtype,
    measured_gemm_dtype,
    tier3_gemm,
    triton_gemm_parity,
)


def test_default_gemm_dtype_follows_the_platform_kind():
    def dtype(hardware: str) -> str:
        return default_gemm_dtype(rule_context(profile(hardware=hardware)))

    assert dtype("nvidia-gpu") == "bf16" and dtype("ascend-npu") == "bf16" and dtype("google-tpu") == "bf16"
    assert dtype("x86-cpu") == "fp32" and dtype("arm-cpu") == "fp32"


def test_measured_gemm_dtype():
    assert measured_gemm_dtype(evidence_facts([], "x86-cpu")) is None
    slower = measured_gemm_dtype(evidence_facts([evidence(gemm_cases(0.6))], "x86-cpu"))
    assert slower[0] == "fp32" and "do not use bf16 here" in slower[1].text
    faster = measured_gemm_dtype(evidence_facts([evidence(gemm_cases(1.6))], "x86-cpu"))
    assert faster[0] == "bf16" and faster[1].cites[0].kind == "evidence"


def test_proxy_speed_note_labels_and_does_not_apply():
    facts = evidence_facts([evidence(gemm_cases(0.6))], "nvidia-gpu")
    note = proxy_speed_note(facts, "gemm_bf16_speedup")
    assert note.text.startswith("proxy evidence (x86-cpu): bf16 0.60x fp32")
    assert "not applied to nvidia-gpu" in note.text
    assert "[proxy: measured on x86-cpu]" in note.cites[0].figure
    assert proxy_speed_note(evidence_facts([evidence(gemm_cases(0.6))], "x86-cpu"), "gemm_bf16_speedup") is None


def test_gemm_dtype_falls_back_to_the_hardware_default():
    dtype, lines = gemm_dtype(rule_context(profile(), evidence(gemm_cases(0.6))))
    assert dtype == "bf16" and len(lines) == 2  # the default, and the proxy figure not applied


def test_dtype_switch():
    assert (dtype_switch("fp32").metric, dtype_switch("fp32").op, dtype_switch("fp32").threshold) == (
        "evidence.gemm_bf16_speedup",
        ">=",
        1.0,
    )
    assert dtype_switch("bf16").op == "<"


def test_triton_gemm_parity():
    assert triton_gemm_parity(evidence_facts([], "nvidia-gpu")) is None
    below = triton_gemm_parity(evidence_facts([evidence(gemm_cases(2.0, "cuda", 0.7), "nvidia-gpu")], "nvidia-gpu"))
    above = triton_gemm_parity(evidence_facts([evidence(gemm_cases(2.0, "cuda", 0.95), "nvidia-gpu")], "nvidia-gpu"))
    assert below[0] is False and "keep the vendor GEMM" in below[1].text
    assert above[0] is True


def test_tier3_gemm_keeps_the_vendor_gemm_when_triton_is_far_behind():
    behind = rule_context(profile(team_skill="kernel"), evidence(gemm_cases(2.0, "cuda", 0.7), "nvidia-gpu"))
    entry, condition = tier3_gemm(behind)
    assert isinstance(entry, Choice) and entry.option == "cublas" and condition.id == "triton-gemm-parity"
    unmeasured = rule_context(profile(team_skill="kernel"))
    entry, condition = tier3_gemm(unmeasured)
    assert entry.option == "triton" and condition.id == "triton-gemm-behind"


def test_decide_gemm():
    decision = decide_gemm(rule_context(profile(hardware="x86-cpu"), evidence(gemm_cases(0.6))))
    assert decision.tier1.option == "onednn" and decision.tier1.settings == {"dtype": "fp32"}
    assert [s.id for s in decision.switch_conditions] == ["bf16-gemm-faster"]
    nvidia = decide_gemm(rule_context(profile()))
    assert nvidia.tier1.option == "cublas" and nvidia.tier2.option == "triton" and not nvidia.tier2.fits_team
    fp8 = decide_gemm(rule_context(profile(needs={"quantization": "fp8"}))).tier1
    assert fp8.settings == {"dtype": "fp8"} and fp8.rationale[0].cites[0].ref == "cublas.fp8"
    cpu_fp8 = decide_gemm(rule_context(profile(hardware="x86-cpu", needs={"quantization": "fp8"}))).tier1
    assert cpu_fp8.settings["dtype"] == "fp32"  # no FP8 GEMM path on CPUs
    large = decide_gemm(rule_context(profile(model_type="moe", workload="training", needs={"devices": 64}))).tier1
    assert large.settings == {"dtype": "bf16", "via": "transformer-engine"}
    assert {r.option for r in nvidia.rejections} == {"cutlass", "triton"}
