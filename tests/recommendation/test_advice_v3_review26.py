"""Review 26's and 27's defects, each pinned: a train-and-serve verdict hands the checkpoint to no engine tier 1 lacks,
an expert all-to-all library the serving recipe does not use is not set for it, NVIDIA's Qwen3-235B FP8 recipe covers
B200, quantization-aware training is gated on the exported model's accuracy, and a diffusion model on image quality."""

from __future__ import annotations

from recommendation_builders import answer_for as answer
from recommendation_builders import answer_without


def test_the_verdict_hands_the_trained_checkpoint_to_no_engine_tier_1_lacks():
    # (on a knowledge base without Hygon's DTK PyTorch CNN route, which leads such jobs since reviews 224/236 p14)
    result = answer_without(
        {"hygon-dtk-pytorch-cnn-k100-ai"},
        model_type="cnn",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="both",
        needs={"quantization": "int8", "devices": 4},
    )
    # no Hygon stack documents INT8 for a CNN: the documented stack serves in its float format and says so (review 213
    # p15 gave such image models no stack at all), handing the trained model to the runtime that stack documents
    deployment = next(choice for choice in result.tiers[0].choices if choice.concern == "deployment")
    assert deployment.settings["part"] == "PaddlePaddle's own inference (Paddle Inference) on Hygon DTK"
    assert result.verdict is not None
    assert "for tier 1's serving engine to load" not in result.verdict
    assert "no stack documents int8 for this profile here; this one serves fp32, int8's fallback" in result.verdict


def test_a_recipe_with_its_own_moe_backend_gets_no_deepep_all_to_all():
    # NVIDIA's Dynamo Qwen3-235B-A22B-FP8 recipe keeps TensorRT-LLM's default MoE backend on Hopper; no DeepEP.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        team_skill="kernel",
        model="Qwen/Qwen3-235B-A22B",
        needs={"quantization": "fp8", "devices": 8},
    )
    collectives = next(c for c in result.tiers[0].choices if c.concern == "collectives")
    assert "expert-all-to-all" not in collectives.settings
    assert any("is not the expert all-to-all" in reason.text for reason in collectives.rationale)


def test_qwen3_235b_fp8_on_b200_takes_nvidias_blackwell_variant_of_the_recipe():
    # Review 27 (p01): the Dynamo recipe's B100/B200 variant needs moe_config.backend DEEPGEMM with TensorRT-LLM 1.3.x.
    # The recipe is sized for 16 GPUs (two nodes; reviews 109/110 p01 took it for one 8-GPU node), so 16 here.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        team_skill="kernel",
        model="Qwen/Qwen3-235B-A22B",
        needs={"quantization": "fp8", "devices": 16},
    )
    serving = next(s for s in result.stacks if s.workload == "inference")
    assert serving.stack == "nvidia-dynamo-trtllm-qwen3-235b-fp8" and not serving.misfits
    moe = next(part for part in serving.parts if part.role == "moe")
    assert "DEEPGEMM on Blackwell" in (moe.setting or "")


def test_quantization_aware_training_is_judged_by_the_exported_models_accuracy():
    # Review 27 (p08): an INT8 QAT training job was held to "the int8 run's training loss" against BF16; QAT ships a
    # quantized model, so its gate is that model's task accuracy against the float one.
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="training",
        parameters_b=0.025,
        needs={"quantization": "int8", "quantization_method": "qat", "devices": 8},
    )
    ids = {condition.id: condition for condition in result.switch_conditions}
    assert "int8-loss-gap" not in ids
    assert ids["int8-accuracy-drop"].description.startswith("the exported int8 QAT model")


def test_a_quantized_diffusion_model_is_gated_on_image_quality_not_a_task_score():
    result = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        model="black-forest-labs/FLUX.1-schnell",
        needs={"quantization": "int8"},
    )
    gate = next(c for c in result.switch_conditions if c.id == "int8-accuracy-drop")
    assert "image-quality evaluation (mean ImageReward over the same prompts and seeds" in gate.description
    # reviews 220 p14 and 222 p15: a diffusion gate counts a per cent of ImageReward, not a "point" of no metric
    assert "scores more than 1% below" in gate.description and "point" not in gate.description
