"""Advice v3, reviews 229-238: defects fixed late in the twenty-eighth session, each pinned on the profile that showed
it."""

from __future__ import annotations

from recommendation_builders import answer_for as answer
from recommendation_builders import chosen_stack


def test_tier_1_heading_names_an_independent_trainer_beside_a_vendor_serving_stack():
    # Review 229 p15: "Tier 1: official full stack" over vLLM's serving stack and verl's GRPO trainer, an independent
    # project's (https://github.com/verl-project/verl#readme), while tier 1's own note named it as such.
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="both",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen3-8B",
        needs={"long_context": True, "devices": 8},
    )
    assert chosen_stack(result, "training").startswith("nvidia-verl-")
    assert "training stack: an independent project's engine" in result.tier(1).name
    assert "serving stack: an independent" not in result.tier(1).name
