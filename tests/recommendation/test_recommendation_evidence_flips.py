"""One test per evidence rule: flip the evidence, the answer flips, and the old answer's switch condition fires."""

from __future__ import annotations

from recommendation_builders import (
    attention_cases,
    case,
    dynamic_cases,
    evidence,
    gemm_cases,
    int8_cases,
    profile,
)

from advisor.knowledge.loader import load_knowledge_base
from advisor.recommendation.engine import recommend
from advisor.recommendation.facts import evidence_facts
from advisor.recommendation.models import Recommendation
from advisor.recommendation.switches import condition_holds, observed_values

POLICY = load_knowledge_base().policy  # which toolkit each INT8 reading timed


def _choice(answer: Recommendation, concern: str, tier: int = 1):
    return next(choice for choice in answer.tier(tier).choices if choice.concern == concern)


def _fires(before: Recommendation, condition_id: str, after_evidence) -> bool:
    """The review's question: does `before`'s switch condition hold on the new evidence?"""
    condition = next(c for c in before.switch_conditions if c.id == condition_id)
    facts = evidence_facts(after_evidence, before.profile.hardware)
    return condition_holds(condition, observed_values(before.profile, facts)) is True


def _rejected(answer: Recommendation) -> dict[str, str]:
    return {r.option: " ".join(reason.text for reason in r.reasons) for r in answer.rejected}


def test_bf16_gemm_slower_than_fp32_on_this_cpu_keeps_fp32():
    cpu = profile(hardware="x86-cpu")
    faster, slower = [evidence(gemm_cases(1.6))], [evidence(gemm_cases(0.6))]
    with_faster, with_slower = recommend(cpu, faster), recommend(cpu, slower)
    assert _choice(with_faster, "gemm").settings["dtype"] == "bf16"
    gemm = _choice(with_slower, "gemm")
    assert gemm.settings["dtype"] == "fp32"
    assert "bf16 GEMM measured slower than fp32 on x86-cpu (bf16 0.60x fp32" in gemm.rationale[0].text
    assert "do not use bf16 here" in gemm.rationale[0].text and gemm.rationale[0].cites[0].kind == "evidence"
    assert _fires(with_faster, "bf16-gemm-slower", slower) and _fires(with_slower, "bf16-gemm-faster", faster)


def test_long_context_takes_the_kernel_measured_linear_in_memory():
    long_context = profile(workload="training", needs={"long_context": True})  # no serving engine hosts the kernel
    flash_linear = [evidence(attention_cases({"naive": 2, "sdpa.flash": 1, "sdpa.cudnn": 2}, "cuda"), "nvidia-gpu")]
    cudnn_linear = [evidence(attention_cases({"naive": 2, "sdpa.flash": 2, "sdpa.cudnn": 1}, "cuda"), "nvidia-gpu")]
    first, second = recommend(long_context, flash_linear), recommend(long_context, cudnn_linear)
    assert _choice(first, "attention").option == "flash-attention"
    assert "sdpa.cudnn attention memory ~N^2.00: not O(N)" in _rejected(first)["cudnn"]
    assert _choice(second, "attention").option == "cudnn"
    assert "sdpa.flash attention memory ~N^2.00: not O(N)" in _rejected(second)["flash-attention"]
    assert _fires(first, "flash-attention-memory-superlinear", cudnn_linear)


def test_naive_quadratic_against_flash_linear_makes_flash_style_attention_mandatory():
    cpu = profile(hardware="x86-cpu", workload="training", needs={"long_context": True})
    quadratic = recommend(cpu, [evidence(attention_cases({"naive": 2.0, "sdpa.flash": 1.0}))])
    linear = recommend(cpu, [evidence(attention_cases({"naive": 1.0, "sdpa.flash": 1.0}))])
    gap = quadratic.tier(1).gaps[0]
    assert gap.concern == "attention" and gap.rationale[0].text.endswith("use its flash backend")
    assert any("flash-style attention is mandatory for long context" in line.text for line in gap.rationale)
    assert not linear.tier(1).gaps[0].rationale[0].text.endswith("use its flash backend")


def test_int8_slower_on_the_target_rules_out_the_measured_path_only():
    int8 = profile(needs={"quantization": "int8", "quantization_method": "ptq"})
    pays = [evidence(int8_cases(2.0, 0.004, device="cuda"), "nvidia-gpu")]
    loses = [evidence(int8_cases(0.6, 0.004, device="cuda"), "nvidia-gpu")]
    with_gain, with_loss = recommend(int8, pays), recommend(int8, loses)
    assert _choice(with_gain, "quantization").option == "modelopt"
    kept = _choice(with_loss, "quantization")
    assert kept.option == "modelopt" and kept.rationale[0].text.startswith("torchao's INT8 path measured")
    assert "its INT8 path measured slower than float on nvidia-gpu" in _rejected(with_loss)["torchao"]
    # The probe times torchao's path, not ModelOpt's: no switch claims the measurement speaks for the choice.
    assert "int8-slower-on-target" not in [s.id for s in with_gain.switch_conditions]


def test_an_int8_speed_switch_only_watches_the_path_the_probe_measures():
    from advisor.recommendation.rules.quantization import quantization_switches

    dense = profile(needs={"quantization": "int8"})
    assert [s.id for s in quantization_switches("int8", False, dense, "torchao", POLICY)] == ["int8-slower-on-target"]
    assert quantization_switches("int8", False, dense, "modelopt", POLICY) == ()
    assert [s.id for s in quantization_switches("int8", True, dense, policy=POLICY)] == ["int8-pays-on-target"]
    cnn = profile(model_type="cnn", hardware="x86-cpu", needs={"quantization": "int8"})
    (watch,) = quantization_switches("int8", False, cnn, "onnxruntime", POLICY)
    assert watch.metric == "evidence.int8_model_speedup_cnn"


def test_static_compile_recompiling_on_new_shapes_moves_to_dynamic_or_bucketed():
    # a CNN's training loop compiles with torch.compile (an LLM's Megatron stack packs its sequences instead)
    training = profile(model_type="cnn", workload="training", needs={"dynamic_shapes": True})
    few_shapes = [evidence(dynamic_cases(2.0, device="cuda"), "nvidia-gpu")]
    many_shapes = [evidence(dynamic_cases(25.0, dynamic_total=2.0, bucketed_total=1.0, device="cuda"), "nvidia-gpu")]
    static, bucketed = recommend(training, few_shapes), recommend(training, many_shapes)
    assert _choice(static, "dynamic-shapes").settings == {"mode": "static"}
    assert _choice(bucketed, "dynamic-shapes").settings == {"mode": "bucketed"}
    assert _fires(static, "static-compile-recompiles", many_shapes)
    dynamic_wins = [evidence(dynamic_cases(25.0, dynamic_total=1.0, bucketed_total=2.0, device="cuda"), "nvidia-gpu")]
    assert _choice(recommend(training, dynamic_wins), "dynamic-shapes").settings == {"mode": "dynamic"}
    limit = [evidence(dynamic_cases(2.0, limit_hit=True, device="cuda"), "nvidia-gpu")]
    assert _choice(recommend(training, limit), "dynamic-shapes").settings["mode"] != "static"


def test_triton_gemm_parity_decides_the_tier3_gemm():
    kernel_team = profile(team_skill="kernel")
    close = [evidence(gemm_cases(2.0, "cuda", triton_ratio=0.95), "nvidia-gpu")]
    behind = [evidence(gemm_cases(2.0, "cuda", triton_ratio=0.6), "nvidia-gpu")]
    with_close, with_behind = recommend(kernel_team, close), recommend(kernel_team, behind)
    assert _choice(with_close, "gemm", tier=3).option == "triton"
    assert _choice(with_behind, "gemm", tier=3).option == "cublas"
    assert _fires(with_close, "triton-gemm-behind", behind) and _fires(with_behind, "triton-gemm-parity", close)


def test_proxy_speed_informs_but_never_overrides_the_target():
    gpu = profile(needs={"quantization": "int8", "quantization_method": "ptq"})
    cpu_figures = [evidence(gemm_cases(0.5) + int8_cases(0.6, qdq=True), "x86-cpu")]
    gpu_figures = [evidence(gemm_cases(0.5, "cuda") + int8_cases(0.6, device="cuda"), "nvidia-gpu")]
    proxy, measured = recommend(gpu, cpu_figures), recommend(gpu, gpu_figures)
    assert proxy.proxy_evidence and not measured.proxy_evidence
    assert _choice(proxy, "gemm").settings["dtype"] == "bf16" and _choice(proxy, "quantization").option == "modelopt"
    texts = [line.text for line in _choice(proxy, "gemm").rationale]
    assert any(text.startswith("proxy evidence (x86-cpu)") and "not applied to nvidia-gpu" in text for text in texts)
    # Portable facts from the proxy still inform, labelled as proxy evidence.
    quantization_texts = [line.text for line in _choice(proxy, "quantization").rationale]
    assert any(t.startswith("proxy evidence (x86-cpu): quantizing LayerNorm's input") for t in quantization_texts)
    assert any("proxy evidence only" in note for note in proxy.confidence_notes)
    # The same figures measured on the target do decide.
    assert _choice(measured, "gemm").settings["dtype"] == "fp32"
    assert _choice(measured, "quantization").rationale[0].text.startswith("torchao's INT8 path measured")


def test_noisy_and_failed_cases_lower_the_confidence_not_the_answer():
    cpu = profile(hardware="x86-cpu")
    clean = recommend(cpu, [evidence(gemm_cases(0.6))])
    noisy_cases = [
        case(
            "gemm",
            "torch.matmul",
            c.key.dtype,
            c.key.shape,
            c.timing.stats.median,
            baseline=True,
            noisy=True,
            **c.key.options,
        )
        for c in gemm_cases(0.6)
    ]
    shape = {"m": 16, "n": 256, "k": 256}
    failed = [case("gemm", "triton.matmul-64x64x32-w4-s3", "fp32", shape, status="failed", kind="decode")]
    shaky = recommend(cpu, [evidence(noisy_cases + failed)])
    assert _choice(shaky, "gemm").settings == _choice(clean, "gemm").settings
    assert _choice(shaky, "gemm").settings["dtype"] == "fp32"
    assert shaky.confidence < clean.confidence
    assert "1 of 5 attempted cases failed" in shaky.confidence_notes
    assert any("4 of 4 timed cases were noisy" in note for note in shaky.confidence_notes)
    busy = recommend(cpu, [evidence(gemm_cases(0.6), busy=True)])
    assert busy.confidence < clean.confidence
