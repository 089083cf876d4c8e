"""What a chosen stack documents replaces the rule's generic default: a quantization part's stated scale granularity
(llama.cpp's Q8_0 keeps one scale per block of 32 weights), a training stack's documented converter (mlx_lm.fuse),
and a diffusion pipeline on Inferentia2 (Optimum Neuron) instead of a bare SDK."""

from __future__ import annotations

import yaml

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import parse_profile
from advisor.recommendation.adapt import documented_granularity
from advisor.recommendation.engine import recommend
from advisor.recommendation.models import Recommendation


def answer(**fields: object) -> Recommendation:
    return recommend(parse_profile(yaml.safe_dump({"team_skill": "framework", **fields})), [], load_knowledge_base())


def test_a_documented_block_granularity_replaces_the_rules_per_channel_default():
    settings = {"as documented": "one FP16 scale per block of 32 weights", "granularity": "per-channel"}
    assert documented_granularity(settings)["granularity"] == "per block of 32 weights"
    assert documented_granularity({"as documented": "per-channel weights", "granularity": "per-channel"}) == {
        "as documented": "per-channel weights",
        "granularity": "per-channel",
    }
    assert "granularity" not in documented_granularity({"as documented": "one scale per block of 32 weights"})


def test_llama_cpp_int8_on_graviton_is_block_wise_not_per_channel():
    # ggml-common.h: QK8_0 = 32, block_q8_0 holds one FP16 delta and 32 int8 quants.
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="graviton4",
        workload="inference",
        needs={"quantization": "int8", "quantization_method": "ptq"},
    )
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert quantization.option == "llama-cpp"
    assert quantization.settings["granularity"] == "per block of 32 weights"


def test_mlx_lora_to_mlx_lm_serving_names_the_fuse_step():
    result = answer(model_type="dense-transformer", hardware="apple-silicon", device="apple-m4", workload="both")
    assert "mlx_lm.fuse" in result.verdict
    assert "neither stack documents the converter" not in result.verdict


def test_sdxl_on_inf2_is_served_by_optimum_neuron_not_a_bare_sdk():
    result = answer(
        model_type="diffusion",
        hardware="aws-neuron",
        device="inf2",
        workload="inference",
        model="stabilityai/stable-diffusion-xl-base-1.0",
    )
    assert "No documented whole stack" not in result.verdict
    assert "Optimum Neuron" in result.verdict
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert deployment.option == "neuron-sdk"
    assert "NeuronStableDiffusionXLPipeline" in deployment.settings["part"]


def test_optimum_neuron_diffusion_is_not_offered_on_trn2():
    # Neuron 2.34 ends PyTorch/XLA inference on Trn2 and Trn3, the tracing path Optimum Neuron's pipelines use.
    result = answer(model_type="diffusion", hardware="aws-neuron", device="trn2", workload="inference")
    assert "Optimum Neuron" not in result.verdict.split("The nearest documented stack")[0]
