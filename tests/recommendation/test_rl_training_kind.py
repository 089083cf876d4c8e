"""Review 49 p02: reinforcement-learning post-training (GRPO/PPO) is a training kind of its own. A job asking `rl` is
whole-model training that only a stack whose page names rl fits (a rollout engine, a trainer and per-step weight sync):
a pre-training or fine-tuning recipe, or a page naming no kind, is a misfit; GRPO of Qwen3-8B on 8 x H100 that also
serves gets verl's GRPO stack for training (https://verl.readthedocs.io/en/latest/algo/grpo.html) and a serving stack."""

from __future__ import annotations

import yaml

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import parse_profile
from advisor.recommendation.engine import recommend
from advisor.recommendation.models import Recommendation
from advisor.recommendation.policy import FINE_TUNING_KINDS, WHOLE_MODEL_TRAINING
from advisor.vocabulary import TRAINING_KINDS


def advise(**fields: object) -> Recommendation:
    profile = {"team_skill": "kernel", "model_type": "dense-transformer", **fields}
    return recommend(parse_profile(yaml.safe_dump(profile)), [], load_knowledge_base())


def test_rl_is_a_whole_model_training_kind():
    assert "rl" in TRAINING_KINDS
    assert "rl" in WHOLE_MODEL_TRAINING
    assert "rl" in FINE_TUNING_KINDS  # its recipe names the framework at any scale


def test_an_rl_library_is_offered_to_rl_jobs_only():
    verl = load_knowledge_base().get("verl")
    assert verl.trains_kind("rl")
    assert not verl.trains_kind(None) and not verl.trains_kind("pretraining")


def test_grpo_of_qwen3_8b_on_8_h100_trains_with_verl_and_still_serves():
    result = advise(
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="both",
        training="rl",
        model="Qwen/Qwen3-8B",
        needs={"devices": 8},
    )
    chosen = {stack.workload: stack.stack for stack in result.stacks}
    assert chosen["training"] == "nvidia-verl-grpo-hopper"
    assert "inference" in chosen
    # NeMo RL's GRPO stack, an RL stack documented for dense models too (review 68 p03), is the training option beside
    # it; a pre-training recipe is still turned down for an rl job where the considered list has room for it
    assert any(o.stack == "nvidia-nemo-rl-grpo-h100" for o in result.stacks_considered)
    trains = advise(hardware="nvidia-gpu", device="h100-sxm", workload="training", training="rl", model="Qwen/Qwen3-8B")
    # a recipe of another kind (the model's own SFT recipes, or a pre-training one) is turned down for it as such
    others = [o for o in trains.stacks_considered if not o.chosen and "megatron-bridge" in o.stack]
    assert others and all(", not rl" in o.reason for o in others), [(o.stack, o.reason) for o in others]
    assert result.verdict is not None and "verl.model_merger" in result.verdict


def test_a_page_naming_no_kind_is_no_rl_stack():
    # Intel's Transformers Trainer page names no kind of training: fine for a job of no stated kind, not for RL.
    result = advise(
        hardware="intel-gaudi",
        device="gaudi3",
        workload="training",
        training="rl",
        model="meta-llama/Llama-3.1-8B",
        needs={"devices": 1},
    )
    option = next(o for o in result.stacks_considered if o.stack == "gaudi-transformers-trainer-bf16")
    assert "names no kind of training, and none of rl" in option.reason


def test_moe_grpo_on_32_h100_takes_nemo_rl_with_verl_beside_it():
    result = advise(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="rl",
        model="Qwen/Qwen3-30B-A3B",
        needs={"devices": 32},
    )
    assert result.stacks[0].stack == "nvidia-nemo-rl-grpo-h100"
    assert any(o.stack == "nvidia-verl-grpo-hopper" for o in result.stacks_considered)
