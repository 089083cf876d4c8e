"""Tier 3's portable quantizer must quantize the profile's model type: a toolkit whose knowledge-base entry lists the
model types it handles (LLM Compressor: dense, MoE and multimodal LLMs) is no answer for a diffusion model, even where
tier 3's engine (SGLang, which also serves diffusion models) loads its output."""

from __future__ import annotations

import pytest

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import Needs, Profile
from advisor.recommendation.engine import recommend

KNOWLEDGE = load_knowledge_base()


def int8_service(hardware: str, device: str | None, model_type: str) -> Profile:
    return Profile(
        model_type=model_type,
        hardware=hardware,
        device=device,
        workload="inference",
        team_skill="framework",
        needs=Needs(quantization="int8", devices=8),
    )


def test_an_int8_diffusion_service_on_ascend_gets_no_llm_quantizer_in_tier_3():
    """SGLang (Ascend's third listed serving engine, with SGLang Diffusion) can be tier 3's engine for a diffusion model;
    LLM Compressor, whose output it loads, quantizes LLMs only, so tier 3 leaves quantization to each platform."""
    answer = recommend(int8_service("ascend-npu", "ascend-910b", "diffusion"), [], KNOWLEDGE)
    tier3 = answer.tier(3).options()
    assert tier3.get("quantization") != "llm-compressor"
    assert "quantization" in {gap.concern for gap in answer.tier(3).gaps} or "quantization" in tier3


@pytest.mark.parametrize("model_type", ["diffusion", "cnn", "dense-transformer", "moe"])
@pytest.mark.parametrize("family", sorted(KNOWLEDGE.families()))
def test_tier_3s_quantizer_serves_the_model_type(family, model_type):
    answer = recommend(int8_service(family, None, model_type), [], KNOWLEDGE)
    option = answer.tier(3).options().get("quantization")
    if option is not None and option in KNOWLEDGE.ids():
        assert KNOWLEDGE.get(option).serves_model_type(model_type), (family, model_type, option)
