"""Review 22's defects, each pinned: one stack that trains and serves needs no converter between its halves, and a
framework's own inference is named as the deployment, not the toolkit under it."""

from __future__ import annotations

from recommendation_builders import answer_without


def test_one_stack_that_trains_and_serves_needs_no_converter():
    # PaddlePaddle's DCU build trains and serves ResNet50 (its DCU page validates both), and Paddle Inference runs what
    # Paddle trains: the record must not ask for a converter that neither stack documents.
    # (on a knowledge base without Hygon's DTK PyTorch CNN route, which leads such jobs since reviews 224/236 p14)
    result = answer_without(
        {"hygon-dtk-pytorch-cnn-k100-ai"},
        model_type="cnn",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="both",
        model="microsoft/resnet-50",
        needs={"devices": 4},
    )
    assert result.verdict is not None
    assert "neither stack documents the converter" not in result.verdict
    assert "no format conversion" in result.verdict
    deployment = next(c for c in result.tiers[0].choices if c.concern == "deployment")
    assert "Paddle Inference" in deployment.rationale[0].text
