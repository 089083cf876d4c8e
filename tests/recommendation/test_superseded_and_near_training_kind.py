"""Review 33 p09: a stack whose software the vendor's current support matrix no longer carries ranks after the current
one that fits as well, and a pre-training recipe for a full fine-tuning job is a near miss (both train every weight),
lighter than a pre-training recipe for a LoRA job."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

from advisor.knowledge.loader import load_knowledge_base
from advisor.recommendation.policy import MISFIT_WEIGHTS


def gaudi3_fp8(**fields: object):
    # Intel's Megatron-LM fork (https://github.com/HabanaAI/Megatron-LM#supported-configurations, Intel Gaudi software
    # 1.24.0) and its Megatron-DeepSpeed fork (last branch 1.19.0, gone from
    # https://docs.habana.ai/en/latest/Support_Matrix/Support_Matrix.html) both pre-train LLaMA 3.1 in FP8 on Gaudi 3.
    return answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="training",
        model="meta-llama/Llama-3.1-70B",
        needs={"quantization": "fp8", "devices": 8},
        **fields,
    )


def test_the_superseded_fork_ranks_after_the_current_one():
    options = {option.stack: option for option in gaudi3_fp8(training="pretraining").stacks_considered}
    assert options["gaudi-megatron-lm-llama"].chosen
    old = options["gaudi-megatron-deepspeed-fp8-llama"]
    assert not old.chosen and "no longer Megatron-DeepSpeed" in old.reason
    assert "carried by the vendor's current release" in old.reason


def test_only_the_megatron_deepspeed_stack_is_marked_superseded():
    marked = {stack.id for stack in load_knowledge_base().stacks_for("intel-gaudi") if stack.superseded is not None}
    assert marked == {"gaudi-megatron-deepspeed-fp8-llama"}


def test_a_pretraining_recipe_is_a_near_miss_for_full_fine_tuning():
    assert MISFIT_WEIGHTS["training_kind_near"] < MISFIT_WEIGHTS["training_kind"]
    result = gaudi3_fp8(training="fine-tuning")
    chosen = next(option for option in result.stacks_considered if option.chosen)
    assert chosen.stack == "gaudi-megatron-lm-llama"
    assert "documented for pretraining, not fine-tuning: both train every weight" in chosen.reason


def test_a_pretraining_recipe_stays_a_full_miss_for_lora():
    options = {option.stack: option for option in gaudi3_fp8(training="lora").stacks_considered}
    assert "documented for pretraining, not lora" in options["gaudi-megatron-lm-llama"].reason
