"""Among the options a LoRA job weighs, a stack documented for LoRA in another precision (AMD's ROCm single-GPU PEFT/TRL
guide, which trains in fp32) comes before stacks documented only for another kind of training (pre-training or RL
recipes), so the considered list names the route a team would ask about first (review 51, p04)."""

from __future__ import annotations

import yaml

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import parse_profile
from advisor.recommendation.engine import recommend


def one_mi300x_lora():
    # https://rocm.docs.amd.com/en/latest/how-to/rocm-for-ai/fine-tuning/single-gpu-fine-tuning-and-inference.html
    profile = {
        "team_skill": "framework",
        "hardware": "amd-gpu",
        "device": "mi300x",
        "model_type": "dense-transformer",
        "workload": "training",
        "training": "lora",
        "model": "meta-llama/Llama-3.1-8B-Instruct",
        "needs": {"devices": 1, "quantization": "none"},
    }
    return recommend(parse_profile(yaml.safe_dump(profile)), [], load_knowledge_base())


def test_a_lora_stack_in_another_precision_is_considered_before_pretraining_recipes():
    considered = [option.stack for option in one_mi300x_lora().stacks_considered]
    assert "amd-trl-peft-llm-lora-mi300x" in considered
    pretraining = [i for i, stack in enumerate(considered) if stack in ("amd-primus-megatron-te-mi300x",)]
    assert all(considered.index("amd-trl-peft-llm-lora-mi300x") < i for i in pretraining)


def test_the_torchtune_stack_is_weighed_as_deprecated():
    option = next(o for o in one_mi300x_lora().stacks_considered if o.stack == "amd-torchtune-llama-lora-instinct")
    assert "deprecated" in option.reason
