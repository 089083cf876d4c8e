"""Review 32's defects, each pinned: a LoRA job on a release that keeps an earlier model's architecture takes the
LoRA recipe written for that model (not a pre-training recipe), and a later release served on an earlier release's
recipe is a partial fit that says the checkpoints it names are the earlier weights."""

from __future__ import annotations

from recommendation_builders import answer_for as answer


def option(result, stack_id):
    return next(option for option in result.stacks_considered if option.stack == stack_id)


def test_a_llama_3_3_lora_job_on_mi300x_takes_the_primus_recipe_verified_for_llama_3_70b():
    # Review 32 p03 got the Primus pre-training recipe. AMD's Primus native SFT-LoRA guide
    # (rocm.docs.amd.com/projects/primus/en/latest/04-technical-guides/native-sft-lora.html) lists Llama3-70B as
    # verified on MI355X / MI300X, an architecture Llama 3.3 70B keeps; the post-training page (Megatron Bridge,
    # .../02-user-guide/posttraining.html) documents Qwen3 32B only, so since helper kbamdlora (2026-12-06) the native
    # route is taken, as a partial fit with the model's own weights.
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="training",
        training="lora",
        team_skill="kernel",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"devices": 8, "long_context": True},
    )
    chosen = option(result, "amd-primus-megatron-native-sft-lora")
    assert chosen.chosen and not chosen.fits
    assert "meta-llama/Meta-Llama-3-70B" in chosen.reason and "own weights" in chosen.reason
    # the pre-training recipe is never chosen
    pretraining = next((o for o in result.stacks_considered if o.stack == "amd-primus-megatron-te-mi300x"), None)
    assert pretraining is None or (not pretraining.chosen and "not lora" in pretraining.reason)


def test_deepseek_r1_0528_on_the_r1_recipe_is_told_the_published_checkpoint_is_r1s():
    # vllm-ascend's DeepSeek-R1 tutorial serves vllm-ascend/DeepSeek-R1-W8A8, a quantization of R1; R1-0528 is a minor
    # version upgrade with other weights (huggingface.co/deepseek-ai/DeepSeek-R1-0528). Review 32 p05's record loaded
    # R1's checkpoint and called the stack a whole fit.
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="inference",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-R1-0528",
        needs={"quantization": "int8", "quantization_method": "ptq", "long_context": True, "devices": 16},
    )
    recipe = option(result, "ascend-vllm-ascend-deepseek-a3")
    assert recipe.chosen and not recipe.fits
    assert "whose architecture deepseek-ai/DeepSeek-R1-0528 keeps" in recipe.reason
    assert "not a checkpoint it names" in recipe.reason
    generic = option(result, "ascend-vllm-ascend-moe-ep")
    assert not generic.chosen and "recipe written for a model of this one's architecture" in generic.reason


def test_a_train_and_serve_job_is_told_when_its_two_stacks_pin_different_releases():
    # Optimum Neuron's fine-tuning tutorial is validated on Neuron SDK 2.26.1 and vLLM with NxD Inference on 2.28
    # (awsdocs-neuron.readthedocs-hosted.com release notes); review 32 p12 was told both fit one fleet. On Trn1, where
    # Optimum Neuron still trains (on Trn2 AWS's TorchNeuron LoRA tutorial, which pins no versions, now does).
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn1",
        workload="both",
        training="lora",
        model="Qwen/Qwen3-32B",
        needs={"devices": 16},
    )
    assert "Their validated versions differ: neuron-sdk" in result.verdict
    # since review 134 p12 the side on the older release is told to validate on the newer one first
    assert "the newer release, so that one release carries both, or run them as two images until it does" in (
        result.verdict
    )
