"""Defects found after review 37, each pinned: the record's grouped tier lines keep a stack's parts apart from the
candidate they run on (review 36 p10 read "synapseai for gemm, ..., training-framework" with DeepSpeed and INC gone)."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

from advisor.records.render import grouped_choices

GAUDI3_TRAIN_AND_SERVE_FOR_H100 = {
    "model_type": "dense-transformer",
    "hardware": "intel-gaudi",
    "device": "gaudi3",
    "workload": "both",
    "team_skill": "kernel",
    "training": "fine-tuning",
    "model": "meta-llama/Llama-3.1-8B-Instruct",
    "needs": {
        "quantization": "fp8",
        "quantization_method": "ptq",
        "devices": 8,
        "cross_platform": True,
        "other_hardware": ["nvidia-gpu"],
        "other_devices": ["h100-sxm"],
    },
}


def test_a_grouped_tier_line_names_the_stack_part_and_the_candidate_it_runs_on():
    # Intel's DeepSpeed user guide (https://docs.habana.ai/en/latest/PyTorch/DeepSpeed/DeepSpeed_User_Guide.html)
    # trains on its own DeepSpeed fork; vllm-gaudi's INC page quantizes to FP8 with Intel Neural Compressor
    # (https://github.com/vllm-project/vllm-gaudi/blob/main/docs/configuration/quantization/inc.md).
    result = answer(**GAUDI3_TRAIN_AND_SERVE_FOR_H100)
    tier1 = next(tier for tier in result.tiers if tier.tier == 1)
    assert not tier1.primary, "tier 3 leads, so the record shows tier 1 grouped"
    lines = {group["option"]: group["concerns"] for group in grouped_choices(tier1)}
    trainer = next(option for option, concerns in lines.items() if "training-framework" in concerns)
    quantizer = next(option for option, concerns in lines.items() if "quantization" in concerns)
    assert "DeepSpeed" in trainer and lines[trainer] == ["training-framework"]
    assert "Neural Compressor" in quantizer and lines[quantizer] == ["quantization"]
