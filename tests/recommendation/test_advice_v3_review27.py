"""Review 27's remaining defects, each pinned: Gaudi's tier 2 writes no GEMM in TPC-C (the MME runs it)."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

GAUDI3_FP8_KERNEL_TEAM = {
    "model_type": "dense-transformer",
    "hardware": "intel-gaudi",
    "device": "gaudi3",
    "workload": "inference",
    "team_skill": "kernel",
    "model": "meta-llama/Llama-3.1-70B-Instruct",
    "needs": {"quantization": "fp8", "devices": 8},
}


def test_gaudi_tier_2_offers_tpc_kernels_only_for_what_does_not_map_to_the_matrix_engine():
    # Habana's TPC overview: "TPC is designed for workloads that do not map to Matrix Multiplication Engine (MME)";
    # a kernel team cannot hand-write the MME's GEMMs in TPC-C (review 27 p09: "gemm synapseai" under TPC-C).
    tier2 = answer(**GAUDI3_FP8_KERNEL_TEAM).tiers[1]
    assert [choice.concern for choice in tier2.choices] == ["fusion"]
    gaps = {gap.concern: gap.rationale[0] for gap in tier2.gaps}
    assert {"gemm", "attention", "quantization"} <= set(gaps)
    assert "write fusion only, not gemm" in gaps["gemm"].text
    assert any("custom_kernel_concerns" in str(cite) for cite in gaps["gemm"].cites)
    assert any("map to the MME" in note.text for note in tier2.notes)


def test_a_platform_whose_kernel_languages_write_gemm_keeps_it_in_tier_2():
    nvidia = answer(**{**GAUDI3_FP8_KERNEL_TEAM, "hardware": "nvidia-gpu", "device": "h100-sxm"}).tiers[1]
    assert "gemm" in {choice.concern for choice in nvidia.choices}
    assert not any("write fusion only" in gap.rationale[0].text for gap in nvidia.gaps)
