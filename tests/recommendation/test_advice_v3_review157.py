"""Defects of reviews 155-158, each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

# DeepSeek-R1-0528 in FP4 on one 8 x B200 node, as review 155 p01 filed it
R1_FP4 = {
    "model_type": "moe",
    "hardware": "nvidia-gpu",
    "device": "b200",
    "workload": "inference",
    "team_skill": "hpc",
    "model": "deepseek-ai/DeepSeek-R1-0528",
    "needs": {
        "dynamic_shapes": True,
        "quantization": "fp4",
        "quantization_method": "ptq",
        "long_context": True,
        "devices": 8,
    },
}


def test_a_narrower_format_of_a_model_released_in_fp8_falls_back_to_that_release_not_to_a_float_model():
    # Review 155 p01: "keep the float model" for DeepSeek-R1-0528, which DeepSeek releases in FP8; NVIDIA's FP4 card
    # measures FP4 against that FP8 checkpoint (https://huggingface.co/nvidia/DeepSeek-R1-0528-FP4-v2)
    result = answer(**R1_FP4)
    drop = next(s for s in result.switch_conditions if s.id == "fp4-accuracy-drop")
    assert "below deepseek-ai/DeepSeek-R1-0528's fp8 release" in drop.description
    assert "serve the fp8 release as published" in drop.description
    assert "float model" not in drop.description


def test_a_model_released_in_bf16_still_falls_back_to_the_float_model():
    result = answer(**{**R1_FP4, "model_type": "dense-transformer", "model": "meta-llama/Llama-3.1-70B-Instruct"})
    drop = next(s for s in result.switch_conditions if s.id == "fp4-accuracy-drop")
    assert "keep the float model" in drop.description


def test_a_diffusion_training_narrower_format_switch_counts_samples_not_tokens():
    # a Flux pre-training run on MI355X, Primus's FP8 path beside its BF16 run: a diffusion model trains on images,
    # so the throughput it is raced on is samples per device, not tokens
    # (https://rocm.docs.amd.com/projects/primus/en/latest/04-technical-guides/diffusion-models/fp8_training.html)
    result = answer(
        model_type="diffusion",
        hardware="amd-gpu",
        device="mi355x",
        workload="training",
        team_skill="framework",
        model="black-forest-labs/FLUX.1-dev",
        needs={"devices": 8},
    )
    narrower = next(s for s in result.switch_conditions if s.id == "training-in-fp8")
    assert "training throughput (samples/s per device)" in narrower.description
    assert "tokens" not in narrower.description


def test_a_launch_whose_degree_the_page_sets_per_model_size_is_not_read_as_its_first_flag():
    # Review 151 p06: vllm-ascend's Qwen3 tutorial runs "--tensor-parallel-size 1" for Qwen3-0.6B to 8B, two NPUs for
    # 14B and four for 32B (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/Qwen3-Dense.html); the
    # output said "the command's tensor-parallel degree is 1" beside its TP 4 layout for Qwen3-32B
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-32B",
        needs={"dynamic_shapes": True, "devices": 16},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment" and "layout here" in c.settings)
    layout = deployment.settings["layout here"]
    assert "the page sets the tensor-parallel degree by model size" in layout
    assert "the command's tensor-parallel degree is 1" not in layout
