"""The probes and the facts a quantization decision reads follow the precision asked: fp8 reads the gemm probe's
fp8 cases against bf16; int8 reads the int8 probe. INT8 speed and error never speak for an fp8 decision."""

from __future__ import annotations

from recommendation_builders import case, evidence, int8_cases, profile, rule_context

from advisor.recommendation.engine import recommend
from advisor.recommendation.inputs import decision_inputs, probe_weights
from advisor.recommendation.rules.quantization import quantization_lines


def _weights(quantization: str) -> dict[str, float]:
    return probe_weights(decision_inputs(profile(needs={"quantization": quantization, "devices": 8})))


def test_fp8_weighs_the_gemm_probe_and_runs_no_int8_probe():
    fp8 = decision_inputs(profile(needs={"quantization": "fp8", "devices": 8}))
    assert "int8" not in [item.probe for item in fp8]
    gemm = next(item for item in fp8 if item.probe == "gemm")
    assert gemm.decides.endswith("fp8 against bf16") and gemm.weight == max(item.weight for item in fp8)


def test_int8_gives_the_int8_probe_the_largest_share():
    weights = _weights("int8")
    assert weights["int8"] == max(weights.values()) and weights["int8"] > weights["gemm"]
    assert "int8" not in _weights("none")


def _fp8_gemm_cases(speedup: float) -> list:
    shape = {"m": 1024, "n": 4096, "k": 4096}
    return [
        case("gemm", "torch.matmul", "bf16", shape, 1e-3, device="cuda:0", baseline=True, kind="prefill"),
        case("gemm", "torch._scaled_mm", "fp8", shape, 1e-3 / speedup, device="cuda:0", kind="prefill"),
    ]


def test_an_fp8_decision_cites_the_fp8_gemms_and_no_int8_reading():
    measured = evidence(
        [*_fp8_gemm_cases(1.6), *int8_cases(2.0, max_rel_error=0.03, device="cuda:0", qdq=True)], family="nvidia-gpu"
    )
    context = rule_context(profile(needs={"quantization": "fp8", "devices": 8}), measured)
    lines = [reason.text for reason in quantization_lines(context, "fp8", None)]
    assert lines and lines[0].startswith("fp8 GEMMs measured") and "gain from fp8" in lines[0]
    assert not any("int8" in text.lower() or "qdq" in text for text in lines)
    int8_context = rule_context(profile(needs={"quantization": "int8", "devices": 8}), measured)
    int8_lines = " ".join(reason.text for reason in quantization_lines(int8_context, "int8", None))
    assert "INT8 measured" in int8_lines and "qdq.per-tensor" in int8_lines  # the int8 ask still reads them


def test_the_whole_fp8_recommendation_cites_no_int8_case():
    measured = evidence(
        [*_fp8_gemm_cases(0.8), *int8_cases(2.0, max_rel_error=0.03, device="cuda:0", qdq=True)], family="nvidia-gpu"
    )
    advice = recommend(profile(needs={"quantization": "fp8", "devices": 8}), [measured])
    quantization = [choice for tier in advice.tiers for choice in tier.choices if choice.concern == "quantization"]
    assert quantization
    cited = [cite.ref for entry in quantization for reason in entry.rationale for cite in reason.cites]
    assert not any("int8" in ref or "qdq" in ref for ref in cited), cited
