"""The shipped hardware platforms: twelve families, official stacks that the candidates' own claims allow,
and a recommendation for each family."""

from __future__ import annotations

import itertools

import pytest

from advisor.knowledge.loader import hardware_families, load_knowledge_base
from advisor.knowledge.models import KnowledgeBase
from advisor.knowledge.platforms import OfficialStack
from advisor.profile import Profile
from advisor.recommendation.engine import recommend
from advisor.recommendation.models import Choice

FAMILIES = {
    "nvidia-gpu",
    "amd-gpu",
    "ascend-npu",
    "cambricon-mlu",
    "hygon-dcu",
    "iluvatar-gpu",
    "intel-gaudi",
    "google-tpu",
    "aws-neuron",
    "apple-silicon",
    "x86-cpu",
    "arm-cpu",
}
# The concern an official list serves.
OFFICIAL_CONCERN = {
    field: field.replace("_long_context", "").replace("_training", "").replace("_", "-")
    for field in OfficialStack.model_fields
}


@pytest.fixture(scope="module")
def knowledge():
    return load_knowledge_base()


def test_twelve_families_each_described_once(knowledge):
    assert set(knowledge.families()) == FAMILIES
    assert set(hardware_families()) == FAMILIES
    for family in FAMILIES:
        assert knowledge.for_hardware(family).candidates, family


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_official_lists_name_candidates_that_run_there_and_serve_the_concern(knowledge, family):
    platform = knowledge.platform(family)
    for field in OfficialStack.model_fields:
        claim = getattr(platform.official, field)
        for option in claim.value if claim is not None else ():
            candidate = knowledge.get(option)
            assert family in candidate.hardware.value, (family, field, option)
            assert OFFICIAL_CONCERN[field] in candidate.concerns.value, (family, field, option)
    named = (
        "deep_development",
        "serving_engines",
        "training_frameworks",
        "collective_library",
        "kernel_languages",
        "quantization_toolkits",
    )
    for field in named:
        for option in getattr(platform, field).value:
            assert family in knowledge.get(option).hardware.value, (family, field, option)


def test_serving_engines_are_listed_for_the_families_that_name_them(knowledge):
    engines = {c.id for c in knowledge.candidates if c.layer.value == "serving-engine"}
    assert engines == {"vllm", "sglang", "tensorrt-llm", "mindie", "text-embeddings-inference", "xllm"}
    # an embeddings-only server is no LLM serving engine of any family: naming it there would change generation advice
    assert not any("text-embeddings-inference" in p.serving_engines.value for p in knowledge.platforms)
    for platform in knowledge.platforms:
        for engine in set(platform.serving_engines.value) & engines:
            assert platform.id in knowledge.get(engine).hardware.value


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_recommend_answers_for_every_family(knowledge, family):
    for model_type, workload, skill in itertools.product(
        ("dense-transformer", "cnn"), ("training", "inference"), ("framework", "hpc")
    ):
        profile = Profile.model_validate(
            {
                "model_type": model_type,
                "hardware": family,
                "workload": workload,
                "team_skill": skill,
                "needs": {"devices": 8, "dynamic_shapes": True},
            }
        )
        recommendation = recommend(profile, [], knowledge)
        choices = {choice.concern: choice for choice in recommendation.tiers[0].choices}
        gemm = knowledge.platform(family).official.gemm.value
        if gemm and "gemm" in choices and not from_stack(choices["gemm"], knowledge):
            assert choices["gemm"].option in gemm, (family, model_type, workload, skill, choices["gemm"])
        for choice in recommendation.tiers[0].choices:
            if not from_stack(choice, knowledge):
                assert family in knowledge.get(choice.option).hardware.value
            assert choice.option not in {r.option for r in recommendation.rejected if choice.concern in r.concerns}


def from_stack(choice: Choice, knowledge: KnowledgeBase) -> bool:
    """The choice is a part of the chosen documented stack (it cites the stack), not the platform's own default."""
    stacks = {stack.id for stack in knowledge.stacks}
    return choice.part_of is not None or any(
        cite.ref.partition(".")[0] in stacks for reason in choice.rationale for cite in reason.cites
    )


def test_llm_engines_never_serve_a_cnn(knowledge):
    profile = Profile.model_validate(
        {
            "model_type": "cnn",
            "hardware": "nvidia-gpu",
            "workload": "inference",
            "team_skill": "framework",
            "needs": {"dynamic_shapes": True},
        }
    )
    recommendation = recommend(profile, [], knowledge)
    options = {choice.option for tier in recommendation.tiers for choice in tier.choices}
    options |= {option for tier in recommendation.tiers for choice in tier.choices for option in choice.alternatives}
    options |= {rejection.option for rejection in recommendation.rejected}
    assert not options & {"vllm", "sglang", "tensorrt-llm"}
    tier1 = {choice.concern: choice.option for choice in recommendation.tiers[0].choices}
    assert tier1["deployment"] == "tensorrt"


def test_llm_serving_on_each_accelerator_gets_a_serving_engine(knowledge):
    # nvidia-gpu: an unquantized dense LLM on the default B200 takes the vLLM BF16 Blackwell stack (vLLM's Llama 3.3
    # 70B recipe verifies BF16 on B200/GB200, https://github.com/vllm-project/recipes/blob/main/models/meta-llama/
    # Llama-3.3-70B-Instruct.yaml); NVIDIA's TensorRT-LLM guides give dense models only as FP8/NVFP4 checkpoints.
    # amd-gpu: on the default MI355X, SGLang's cookbook serves dense Llama models in BF16
    # (https://docs.sglang.io/cookbook/autoregressive/Llama/Llama3.1) while AMD's vLLM guide leads with MXFP4/FP8 Quark
    # checkpoints (https://rocm.docs.amd.com/projects/ai-ecosystem/en/latest/optimization/vllm-v1-optimization.html).
    expected = {
        "nvidia-gpu": ("tensorrt-llm", "vllm"),
        "amd-gpu": ("sglang", "vllm"),
        "ascend-npu": ("vllm", "mindie"),
        "google-tpu": "vllm",
        "aws-neuron": "vllm",
        "intel-gaudi": "vllm",
        "cambricon-mlu": "vllm",
    }
    for family, engines in expected.items():
        profile = Profile.model_validate(
            {"model_type": "dense-transformer", "hardware": family, "workload": "inference", "team_skill": "framework"}
        )
        tier1 = {c.concern: c.option for c in recommend(profile, [], knowledge).tiers[0].choices}
        assert tier1.get("deployment") in ((engines,) if isinstance(engines, str) else engines), (family, tier1)
