"""Attention rules: cuDNN by default, flash-style kernels mandatory for long context, measured growth decides."""

from __future__ import annotations

from recommendation_builders import attention_cases, evidence, profile, rule_context

from advisor.knowledge.loader import load_knowledge_base
from advisor.recommendation.facts import evidence_facts
from advisor.recommendation.models import Choice, Gap
from advisor.recommendation.rules.attention import (
    attention_switches,
    decide_attention,
    growth_lines,
    long_context_blockers,
    measured_growth,
    needs_attention,
    quadratic_versus_linear,
)

MEASURED_AS = load_knowledge_base().policy.measured_attention  # option -> the probe implementation


def _gpu_facts(growth):
    return evidence_facts([evidence(attention_cases(growth, "cuda"), "nvidia-gpu")], "nvidia-gpu")


def test_needs_attention():
    from advisor.profile import Needs, Profile

    def profile(model_type: str, model: str | None = None) -> Profile:
        return Profile(
            model_type=model_type,
            hardware="arm-cpu",
            workload="inference",
            team_skill="framework",
            needs=Needs(),
            model=model,
        )

    assert needs_attention(profile("dense-transformer")) and needs_attention(profile("diffusion"))
    assert not needs_attention(profile("cnn")) and not needs_attention(profile("cnn", "microsoft/resnet-50"))
    # reviews 91 p15 and 92 p13: DINOv2 and ViT-L given as cnn still have attention layers
    assert needs_attention(profile("cnn", "facebook/dinov2-base"))
    assert needs_attention(profile("cnn", "google/vit-large-patch16-224"))


def test_measured_growth_maps_options_to_probe_implementations():
    facts = _gpu_facts({"sdpa.flash": 1.0, "sdpa.cudnn": 2.0})
    assert measured_growth(facts, "flash-attention", MEASURED_AS).value == 1.0
    assert measured_growth(facts, "cudnn", MEASURED_AS).value == 2.0
    assert measured_growth(facts, "cann-builtin", MEASURED_AS) is None


def test_quadratic_versus_linear():
    line = quadratic_versus_linear(_gpu_facts({"naive": 2.0, "sdpa.flash": 1.0}))
    assert "flash-style attention is mandatory for long context" in line.text and len(line.cites) == 6
    assert quadratic_versus_linear(_gpu_facts({"naive": 1.0, "sdpa.flash": 1.0})) is None
    assert quadratic_versus_linear(_gpu_facts({"naive": 2.0, "sdpa.flash": 2.0})) is None


def test_long_context_blockers():
    # Unmeasured, nothing is ruled out: Transformer Engine prefers cuDNN fused attention on Hopper and newer
    assert long_context_blockers(rule_context(profile()), ("flash-attention", "cudnn")) == {}
    flash_quadratic = evidence(attention_cases({"sdpa.flash": 2.0, "sdpa.cudnn": 1.0}, "cuda"), "nvidia-gpu")
    context = rule_context(profile(), flash_quadratic)
    measured = long_context_blockers(context, ("flash-attention", "cudnn"))
    assert list(measured) == ["flash-attention"] and "not O(N)" in measured["flash-attention"][0].text


def test_tier1_preference_comes_from_the_platform():
    def preference(hardware: str, long_context: bool) -> tuple[str, ...]:
        context = rule_context(profile(hardware=hardware, needs={"long_context": long_context}))
        return context.official("attention", long_context=long_context)

    assert preference("nvidia-gpu", False) == ("cudnn", "flash-attention", "flashinfer", "flex-attention")
    assert preference("nvidia-gpu", True) == ("flash-attention", "cudnn", "flashinfer")
    assert preference("amd-gpu", True) == ("flash-attention", "aiter")  # no long-context list: the same as attention
    assert preference("ascend-npu", True) == ("cann-builtin",)
    assert preference("x86-cpu", True) == ()


def test_growth_lines_and_switches():
    assert growth_lines(_gpu_facts({"sdpa.flash": 1.0}), "flash-attention", MEASURED_AS)[0].text.startswith(
        "measured sdpa.flash"
    )
    assert growth_lines(_gpu_facts({}), "flash-attention", MEASURED_AS) == []
    assert [s.id for s in attention_switches(None, False, MEASURED_AS)] == ["long-context-needed"]
    choice = decide_attention(rule_context(profile(workload="training", needs={"long_context": True}))).tier1
    assert [s.metric for s in attention_switches(choice, True, MEASURED_AS)] == [
        "evidence.sdpa_flash_attention_memory_growth"
    ]


def test_decide_attention():
    assert decide_attention(rule_context(profile(model_type="cnn"))).skipped is not None
    default = decide_attention(rule_context(profile(workload="training")))
    assert default.tier1.option == "cudnn" and {r.option for r in default.rejections} == {
        "cutlass",
        "flashinfer",
        "triton",
    }
    long = decide_attention(rule_context(profile(workload="training", needs={"long_context": True})))
    assert isinstance(long.tier1, Choice) and long.tier1.option == "flash-attention"
    assert [r.option for r in long.rejections] == ["flashinfer", "cutlass", "triton"]
    served = decide_attention(rule_context(profile(needs={"quantization": "int8"}))).tier1  # served by vLLM
    assert served.settings == {"via": "vllm"}
    assert served.option in ("flash-attention", "flashinfer") and served.rationale[0].cites[0].ref.startswith(
        "compatibility."
    )
    cpu = decide_attention(
        rule_context(
            profile(hardware="x86-cpu", workload="training", needs={"long_context": True}),
            evidence(attention_cases({"naive": 2.0, "sdpa.flash": 1.0})),
        )
    )
    assert isinstance(cpu.tier1, Gap) and cpu.tier1.rationale[0].text.endswith("use its flash backend")
