"""Between training stacks that fit a job alike, the one whose page names the kind of training asked comes first (a
LoRA recipe before a page that states no kind), and a job that names no kind gets the stack written for any."""

from __future__ import annotations

import yaml

from advisor.knowledge.loader import load_knowledge_base
from advisor.knowledge.stacks import StackScope
from advisor.profile import parse_profile
from advisor.recommendation.engine import recommend
from advisor.recommendation.models import Recommendation
from advisor.recommendation.stack_choice import training_kind_unnamed


def one_gaudi3(**fields: object) -> Recommendation:
    # Intel's QLoRA guide (https://docs.habana.ai/en/latest/PyTorch/PyTorch_QLoRA_Fine_Tuning/index.html) and the
    # Transformers Trainer page (https://huggingface.co/docs/transformers/v5.10.2/perf_train_gaudi) both fit one Gaudi 3.
    profile = {
        "team_skill": "framework",
        "hardware": "intel-gaudi",
        "device": "gaudi3",
        "model_type": "dense-transformer",
        "workload": "training",
        "model": "meta-llama/Llama-3.1-8B",
        "needs": {"devices": 1},
        **fields,
    }
    return recommend(parse_profile(yaml.safe_dump(profile)), [], load_knowledge_base())


def scope(training: list[str]) -> StackScope:
    return StackScope(
        family="intel-gaudi",
        devices=["gaudi3"],
        workloads=["training"],
        model_types=["dense-transformer"],
        precisions=["bf16"],
        scale=["single-device"],
        training=training,  # type: ignore[arg-type]
    )


def test_a_page_naming_the_kind_asked_is_not_unnamed():
    assert not training_kind_unnamed(scope(["lora"]), "lora")
    assert training_kind_unnamed(scope([]), "lora")
    assert training_kind_unnamed(scope(["lora"]), None)  # a job naming no kind is taken to train every weight
    assert not training_kind_unnamed(scope(["pretraining"]), None)
    assert not training_kind_unnamed(scope(["lora", "fine-tuning"]), None)
    assert not training_kind_unnamed(scope([]), None)


def test_a_lora_job_asking_no_quantization_takes_the_bf16_trainer_over_qlora():
    # The QLoRA page names LoRA, but its base model is quantized to NF4 (int4 leads its formats since review 84 p08):
    # a LoRA job that asks no quantization trains on the BF16 base, and QLoRA is the option for want of memory.
    result = one_gaudi3(training="lora")
    assert result.stacks[0].stack == "gaudi-transformers-trainer-bf16"
    other = next(o for o in result.stacks_considered if o.stack == "gaudi-qlora-bitsandbytes-peft")
    assert "its page leads with int4 and documents bf16 beside it" in other.reason


def test_a_job_of_no_stated_kind_takes_the_stack_written_for_any():
    result = one_gaudi3()
    assert result.stacks[0].stack == "gaudi-transformers-trainer-bf16"
    other = next(o for o in result.stacks_considered if o.stack == "gaudi-qlora-bitsandbytes-peft")
    assert "its page leads with int4" in other.reason  # its NF4 base decides before its adapters-only page does
