"""Advice v3, reviews 220-224: defects fixed in the twenty-eighth session, each pinned on the profile that showed it."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

from advisor.knowledge.loader import load_knowledge_base


def test_a_library_whose_kernels_ship_inside_tier_1_is_not_rejected_for_the_skill_to_write_them():
    # Review 222 p03 (defect 5): "Rejected: composable-kernel - needs a hpc team; this team is kernel" beside a tier 1
    # that runs AITER, whose kernels are partly Composable Kernel (ROCm/aiter's README names Triton, CK, FlyDSL and
    # assembly kernels; .gitmodules pulls 3rdparty/composable_kernel, https://github.com/ROCm/aiter/blob/main/.gitmodules)
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"quantization": "fp8", "devices": 8},
    )
    assert result.stacks[0].stack == "amd-vllm-aiter-fp8-mi300x"
    assert "composable-kernel" not in {rejection.option for rejection in result.rejected}
    carried = load_knowledge_base().get("aiter").ships_kernels_of
    assert carried is not None and "composable-kernel" in carried.value
