"""Defects an independent review (round 17) found in real profiles, each pinned on the profile that showed it."""

from __future__ import annotations

from advisor.profile import Needs, Profile
from advisor.recommendation.engine import recommend


def test_an_option_chosen_in_tier_3_is_not_also_rejected():
    # An 8x 910B team fine-tuning and serving a 72B model: Triton is tier 3's GEMM (beyond the team's skill), and was
    # also "rejected" for fusion on that skill, so the record's tier3 and rejected lists both named it.
    profile = Profile(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="both",
        team_skill="framework",
        needs=Needs(dynamic_shapes=True, quantization="int8", long_context=True, devices=8),
    )
    answer = recommend(profile, [])
    tier3 = {choice.option for choice in answer.tier(3).choices}
    assert "triton" in tier3
    assert "triton" not in {rejection.option for rejection in answer.rejected}
