"""Defects left open after review 100 and those of reviews 101 and 102, each pinned."""

from __future__ import annotations

import pytest
from recommendation_builders import answer_for as answer


def attention(result):
    return next(choice for choice in result.tier(1).choices if choice.concern == "attention")


@pytest.mark.parametrize(
    ("device", "first"), [("a100-sxm", "flash-attention"), ("h100-sxm", "cudnn"), ("b200", "cudnn")]
)
def test_transformer_engine_attention_follows_its_order_on_the_devices_architecture(device, first):
    # Reviews 91 (p02) and 97 (p13): the record named flash-attention under Transformer Engine on an H100 beside TE's
    # own note that it prefers cuDNN fused attention on sm90 and newer. TE's attention notebook orders its PyTorch
    # backends per architecture: flash-attention first on sm8x, cuDNN attention first on Hopper and Blackwell
    # (https://github.com/NVIDIA/TransformerEngine/blob/main/docs/examples/attention/attention.ipynb).
    result = answer(
        model_type="dense-transformer",
        workload="training",
        hardware="nvidia-gpu",
        device=device,
        team_skill="hpc",
        model="meta-llama/Llama-3.1-70B",
        training="pretraining",
        needs={"devices": 64},
    )
    chosen = attention(result)
    assert chosen.option == first
    assert chosen.settings.get("via") == "transformer-engine"
    cited = [cite.ref for reason in chosen.rationale for cite in reason.cites]
    assert "compatibility.attention_first_on.transformer-engine" in cited
