"""A LoRA or full fine-tuning job names the training framework its chosen fine-tuning recipe runs in, at any scale;
a job of a few devices with no such recipe (or of another training kind) keeps DDP/FSDP as before."""

from __future__ import annotations

import yaml

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import parse_profile
from advisor.recommendation.engine import recommend
from advisor.recommendation.models import Recommendation


def answer(**fields: object) -> Recommendation:
    profile = {"team_skill": "framework", "hardware": "nvidia-gpu", "device": "h100-sxm", **fields}
    return recommend(parse_profile(yaml.safe_dump(profile)), [], load_knowledge_base())


def llama_on_one_h100(**fields: object) -> Recommendation:
    # Megatron Bridge's llama31_8b_peft_config is a one-GPU H100 LoRA recipe
    # (https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/v0.6.0/src/megatron/bridge/recipes/llama/h100/llama3.py).
    return answer(
        model_type="dense-transformer",
        workload="training",
        model="meta-llama/Llama-3.1-8B",
        needs={"devices": 1},
        **fields,
    )


def test_a_lora_job_on_one_device_names_the_framework_of_its_recipe():
    result = llama_on_one_h100(training="lora")
    framework = next(c for c in result.tier(1).choices if c.concern == "training-framework")
    assert framework.option == "megatron-core"
    assert "llama31_8b_peft_config" in framework.settings["as documented"]
    assert framework.rationale[0].text.startswith("lora training: the fine-tuning recipe documented for this job")
    assert not any(skipped.concern == "training-framework" for skipped in result.skipped_concerns)


def test_a_job_of_no_stated_kind_keeps_the_frameworks_own_loop():
    result = llama_on_one_h100()
    assert "training-framework" not in result.tier(1).options()
    skipped = next(s for s in result.skipped_concerns if s.concern == "training-framework")
    assert "training loop carries it" in skipped.rationale[0].text


def test_a_pretraining_job_of_one_device_is_not_given_a_fine_tuning_recipe():
    result = llama_on_one_h100(training="pretraining")
    assert "training-framework" not in result.tier(1).options()
    assert result.stacks[0].stack != "nvidia-megatron-bridge-llama3-peft-h100"
