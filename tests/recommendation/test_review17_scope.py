"""Review 17, claims scoped to the platform: generic claims printed beside device-specific text that contradicts them,
each pinned on the profile that showed it and on the general mechanism behind it."""

from __future__ import annotations

import pytest

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import Needs, Profile
from advisor.recommendation.context import RuleContext
from advisor.recommendation.engine import recommend
from advisor.recommendation.facts import evidence_facts
from advisor.recommendation.models import Recommendation
from advisor.recommendation.tier3 import runtime_choice

KNOWLEDGE = load_knowledge_base()


def serving(hardware: str, device: str | None, *, other: list[str], model_type: str = "dense-transformer") -> Profile:
    """An INT8 PTQ inference profile with dynamic shapes, cross-platform where other families are named."""
    needs = Needs(
        dynamic_shapes=True,
        quantization="int8",
        quantization_method="ptq",
        devices=1,
        cross_platform=bool(other),
        other_hardware=other,
    )
    return Profile(
        model_type=model_type,
        hardware=hardware,
        device=device,
        workload="inference",
        team_skill="framework",
        needs=needs,
    )


def tier1_reasons(answer: Recommendation) -> list[str]:
    return [reason.text for choice in answer.tier(1).choices for reason in choice.rationale]


# 1. vLLM's dynamic-shapes claim describes its CUDA build (graph dynamic in tokens, CUDA graphs per batch size); on
# Inferentia the vllm-neuron plugin runs NxD Inference, which compiles one graph per bucket and pads requests to it
# (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/libraries/nxd-inference/developer_guides/feature-guide.html#bucketing).
# The NVIDIA family named in needs.other_hardware must not let that claim into tier 1, the Inferentia stack.
@pytest.mark.parametrize(
    ("hardware", "device"),
    [("aws-neuron", "inf2"), ("cambricon-mlu", "mlu590"), ("amd-gpu", "mi300x")],
)
def test_a_claim_about_an_engines_cuda_build_is_not_cited_where_a_plugin_runs_it(hardware, device):
    answer = recommend(serving(hardware, device, other=["nvidia-gpu"]), [], KNOWLEDGE)
    deployment = next(choice for choice in answer.tier(1).choices if choice.concern == "deployment")
    assert deployment.option == "vllm"
    assert not [text for text in tier1_reasons(answer) if "CUDA graph" in text]


def test_p12_inferentia_dynamic_shapes_keep_the_bucketing_line_only():
    answer = recommend(serving("aws-neuron", "inf2", other=["nvidia-gpu"]), [], KNOWLEDGE)
    shapes = next(choice for choice in answer.tier(1).choices if choice.concern == "dynamic-shapes")
    refs = {cite.ref for reason in shapes.rationale for cite in reason.cites}
    assert "aws-neuron.dynamic_shapes" in refs
    assert "vllm.dynamic_shapes" not in refs


# 2. torchao's INT8 note: 'stable on A100-class GPUs and Intel BMG' (https://docs.pytorch.org/ao/main/workflows/inference.html)
# is about NVIDIA and Intel GPUs, not an Armv9 phone's CPU.
def test_p15_a_phone_is_not_told_what_is_stable_on_a100_class_gpus():
    answer = recommend(serving("arm-cpu", "armv9-mobile-sme2", other=["apple-silicon"]), [], KNOWLEDGE)
    assert not [text for text in tier1_reasons(answer) if "A100" in text]
    quantization = next(choice for choice in answer.tier(1).choices if choice.concern == "quantization")
    # llama.cpp's Android KleidiAI build (PTQ to GGUF) is an equally documented INT8 PTQ route on the phone
    assert quantization.option in ("torchao", "llama-cpp")
    # with QAT asked, llama.cpp's post-training GGUF flow does not fit: torchao is chosen, without the A100 note
    needs = serving("arm-cpu", "armv9-mobile-sme2", other=["apple-silicon"]).needs.model_copy(
        update={"quantization_method": "qat"}
    )
    qat = recommend(
        serving("arm-cpu", "armv9-mobile-sme2", other=[]).model_copy(update={"needs": needs}), [], KNOWLEDGE
    )
    assert not [text for text in tier1_reasons(qat) if "A100" in text]
    quantization = next(choice for choice in qat.tier(1).choices if choice.concern == "quantization")
    assert quantization.option == "torchao"  # still chosen, for the reasons that hold on the phone


def test_a_note_speaking_family_by_family_keeps_the_clauses_about_this_family():
    from advisor.recommendation.citations import note_for_family  # new with the scoping: imported here

    torchao_int8 = KNOWLEDGE.get("torchao").int8.note
    assert note_for_family(torchao_int8, "arm-cpu", KNOWLEDGE) is None  # no clause names Arm technology
    assert note_for_family(torchao_int8, "nvidia-gpu", KNOWLEDGE) == torchao_int8  # its own family: all of it
    vllm_fp8 = KNOWLEDGE.get(
        "vllm"
    ).fp8.note  # 'W8A8 FP8 on NVIDIA Ada/Hopper (and newer) and AMD GPUs; not on CPUs...'
    assert note_for_family(vllm_fp8, "amd-gpu", KNOWLEDGE) == "W8A8 FP8 on NVIDIA Ada/Hopper (and newer) and AMD GPUs."
    # 'W4A8 INT8 on Arm CPUs' names no Neuron technology: nothing of vLLM's INT8 note is said on Inferentia
    assert note_for_family(KNOWLEDGE.get("vllm").int8.note, "aws-neuron", KNOWLEDGE) is None


# 3. msModelSlim runs on Ascend only (https://github.com/Ascend/msmodelslim); tier 3 is multi-platform exploration, so
# its quantizer must itself reach another family. This held at the branch point (fixed in 2db035f, loaded_quantizer's
# portable()); pinned here on the review's profile and on every scenario.
def test_p06_tier3_of_an_ascend_only_job_names_no_ascend_only_quantizer():
    profile = Profile(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="both",
        team_skill="framework",
        needs=Needs(dynamic_shapes=True, quantization="int8", quantization_method="ptq", long_context=True, devices=8),
    )
    answer = recommend(profile, [], KNOWLEDGE)
    tier3 = answer.tier(3).options()
    assert tier3.get("quantization") != "msmodelslim"
    for choice in answer.tier(3).choices:
        if choice.option in KNOWLEDGE.ids():
            candidate = KNOWLEDGE.get(choice.option)
            reach = set(candidate.hardware.value)
            if choice.concern == "quantization":
                reach |= set(KNOWLEDGE.compatibility.output_families(candidate.id))
            assert len(reach) > 1, (choice.concern, choice.option)


# 4. XLA on an NVIDIA GPU is reached from JAX: PyTorch/XLA deprecated its CUDA build in 2.8 and removed it
# (https://github.com/pytorch/xla/pull/9609), JAX's install page lists the NVIDIA GPU backend
# (https://docs.jax.dev/en/latest/installation.html), and XLA:GPU hands convolutions to cuDNN anyway
# (https://github.com/openxla/xla/blob/main/xla/service/gpu/transforms/conv_rewriter.cc). For a diffusion service on
# the NVIDIA (PyTorch) stack it is a port of the model, not a convolution layer to explore.
def test_p03_xla_is_no_convolution_exploration_for_a_service_on_the_nvidia_stack():
    profile = serving("nvidia-gpu", "l40s", other=[], model_type="diffusion")
    answer = recommend(profile, [], KNOWLEDGE)
    assert answer.tier(3).options().get("convolution") != "xla"
    # tier 3 explores on ONNX Runtime, a graph runtime that runs its convolutions on its own kernels (review 38: no
    # layer picked apart from the runtime that would never call it)
    convolution = next(choice for choice in answer.tier(3).choices if choice.concern == "convolution")
    deployment = answer.tier(3).options()["deployment"]
    assert convolution.option == deployment and convolution.settings["by"] == "runtime"


def test_xla_stays_tier3s_portable_compiler_where_the_target_stack_is_xlas():
    profile = Profile(
        model_type="cnn",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="inference",
        team_skill="framework",
        needs=Needs(cross_platform=True, other_hardware=["nvidia-gpu"]),
    )
    answer = recommend(profile, [], KNOWLEDGE)
    assert "xla" in answer.tier(3).options().values()


# 5. llama.cpp has hand-written fused kernels per backend and no graph compiler (https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md);
# tier 3 said it 'fuses the graph itself when it loads the model' while tier 1 quoted that claim.
def test_p13_tier3_says_what_llama_cpp_fuses_in_its_own_words():
    answer = recommend(serving("apple-silicon", "apple-m4", other=["arm-cpu"]), [], KNOWLEDGE)
    fusion = next(choice for choice in answer.tier(3).choices if choice.concern == "fusion")
    assert fusion.option == "llama-cpp"
    text = fusion.rationale[0].text
    assert "fuses the graph itself" not in text
    assert KNOWLEDGE.get("llama-cpp").fusion.note in text
    assert "llama-cpp.fusion" in {cite.ref for cite in fusion.rationale[0].cites}


@pytest.mark.parametrize(
    "runtime",
    [c.id for c in KNOWLEDGE.candidates if c.layer.value in ("runtime", "framework")],
)
def test_every_runtimes_tier3_fusion_line_rests_on_its_own_fusion_claim(runtime):
    profile = serving("nvidia-gpu", None, other=[])
    context = RuleContext(profile=profile, knowledge=KNOWLEDGE, facts=evidence_facts([], profile.hardware))
    choice = runtime_choice("fusion", KNOWLEDGE.get(runtime), context)
    assert f"{runtime}.fusion" in {cite.ref for cite in choice.rationale[0].cites}
    assert "fuses the graph itself when it loads the model" not in choice.rationale[0].text
