"""Review 36's defects, each pinned: a stack validated on several GPUs warns about one of them by its full name, and
that warning is not printed for another target; vLLM TPU's general stack is no longer documented for multimodal
models, whose matrix-tested ones have their own stack."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

from advisor.recommendation.stack_choice import names_another_device

FLUX_FP8 = {
    "model_type": "diffusion",
    "hardware": "nvidia-gpu",
    "workload": "inference",
    "team_skill": "framework",
    "model": "black-forest-labs/FLUX.1-dev",
    "needs": {"quantization": "fp8", "quantization_method": "ptq", "devices": 1},
}


def test_a_risk_naming_another_device_is_not_one_of_this_target():
    assert names_another_device("For the NVIDIA L40S (48 GB), plan FP8", ["NVIDIA L40S", "NVIDIA B200"])
    assert not names_another_device("The demo lists L40 as tested", ["NVIDIA L40S"])
    assert not names_another_device("For the NVIDIA L40S (48 GB), plan FP8", [])


def test_the_l40s_warning_reaches_the_l40s_only():
    # NIM for Visual Generative AI's support matrix speaks of the L40S (docs.nvidia.com/nim/visual-genai/1.1.1/
    # support-matrix.html); review 36 p02 printed it for an RTX PRO 6000 target.
    rtx = answer(**FLUX_FP8, device="rtx-pro-6000-server")
    l40s = answer(**FLUX_FP8, device="l40s")
    assert rtx.stacks and not any("L40S" in risk.text for risk in rtx.stacks[0].risks)
    # Review 51 p03: the matrix's L40S row is now a stack of its own (the FLUX.1-dev NIM, FP8), chosen on the L40S.
    assert l40s.stacks[0].stack == "nvidia-nim-flux1-dev"


def test_a_gemma3_vision_profile_on_v6e_is_a_partial_fit():
    # vLLM TPU's model matrix tests google/gemma-3-27b-it as Text (docs.vllm.ai/projects/tpu/en/latest/
    # recommended_models_features/).
    result = answer(
        model_type="multimodal",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="inference",
        team_skill="framework",
        model="google/gemma-3-27b-it",
        needs={"devices": 8},
    )
    # vLLM JAX's page now sends PyTorch-only models such as Gemma 3 to vLLM TorchTPU (review 104 p11:
    # https://docs.vllm.ai/projects/vllm-jax/en/latest/), whose pinned release is a PyPI pre-release; the stable
    # vllm-tpu 0.32.0 release still serves google/gemma-3-27b-it and passes it in its release matrix
    # (https://pypi.org/project/tpu-inference/0.32.0/), so that released route leads (review 131 p11), vLLM TorchTPU
    # (released as v0.33.0 on 2026-11-17, https://github.com/vllm-project/vllm-torchtpu/releases) stays considered as a
    # generic route behind the recipe for the model, and the vLLM JAX multimodal stack stays considered with its
    # text-only matrix note
    assert result.stacks and result.stacks[0].stack == "tpu-vllm-tpu-release-torchax" and not result.stacks[0].preview
    torchtpu = next(o for o in result.stacks_considered if o.stack == "tpu-vllm-torchtpu-serving")
    assert not torchtpu.chosen and "is the recipe written for the model named" in torchtpu.reason
    assert any(o.stack == "tpu-vllm-jax-multimodal" for o in result.stacks_considered)
    qwen = answer(
        model_type="multimodal",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"devices": 1},
    )
    assert qwen.stacks[0].stack == "tpu-vllm-jax-multimodal" and not qwen.stacks[0].misfits
