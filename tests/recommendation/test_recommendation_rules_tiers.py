"""Tiers 2 and 3 per concern, the skill and hardware switches, the tier assembly, and the confidence factors."""

from __future__ import annotations

from recommendation_builders import case, evidence, gemm_cases, profile, rule_context

from advisor.recommendation.facts import QualityCounts, evidence_facts
from advisor.recommendation.models import Choice, Gap
from advisor.recommendation.rules.confidence import (
    case_quality_factor,
    contention_factor,
    evidence_base,
    overall_confidence,
    unknown_claims,
)
from advisor.recommendation.rules.fusion import decide_fusion
from advisor.recommendation.rules.tiers import (
    cross_platform_switch,
    hardware_switch,
    skill_switches,
    team_hpc_switch,
    tier2_entry,
    tier3_entry,
)
from advisor.recommendation.selection import pick
from advisor.recommendation.tiers import build_tier, tier_notes


def test_tier2_entry():
    assert tier2_entry(rule_context(profile()), "deployment") is None
    nvidia = tier2_entry(rule_context(profile()), "gemm")
    assert nvidia.option == "cutlass" and not nvidia.fits_team
    assert nvidia.rationale[0].text.startswith("maintenance cost high")
    kernel_team = tier2_entry(rule_context(profile(hardware="ascend-npu", team_skill="kernel")), "gemm")
    assert kernel_team.option == "ascend-c" and not kernel_team.fits_team  # TBE no longer evolves
    hpc = tier2_entry(rule_context(profile(hardware="ascend-npu", team_skill="hpc")), "gemm")
    assert hpc.option == "ascend-c" and hpc.fits_team
    assert tier2_entry(rule_context(profile(hardware="amd-gpu", team_skill="hpc")), "gemm").option == "composable-kernel"
    assert isinstance(tier2_entry(rule_context(profile(hardware="x86-cpu")), "gemm"), Gap)


def test_tier3_entry():
    assert tier3_entry(rule_context(profile()), "attention").option == "triton"
    assert tier3_entry(rule_context(profile()), "fusion").option == "torch-compile"  # within a framework team's skill
    assert tier3_entry(rule_context(profile(team_skill="kernel")), "fusion").option == "triton"
    ascend = tier3_entry(rule_context(profile(hardware="ascend-npu")), "gemm")  # Triton through triton-ascend
    assert ascend.option == "triton" and not ascend.fits_team
    cambricon = tier3_entry(rule_context(profile(hardware="cambricon-mlu")), "gemm")
    assert isinstance(cambricon, Gap) and "triton: the knowledge base does not list it" in cambricon.rationale[1].text
    assert tier3_entry(rule_context(profile()), "deployment").option == "onnxruntime"


def test_skill_switches_only_for_preferred_options_above_the_pick():
    context = rule_context(profile())
    preference = ("triton", "torch-compile")
    switches = skill_switches(pick(context, "fusion", preference), "fusion", context, preference)
    assert [s.id for s in switches] == ["fusion-triton-skill"]  # cutlass is not preferred: no switch
    assert skill_switches(pick(context, "gemm", ("cublas",)), "gemm", context, ("cublas",)) == []


def test_tier_level_switches():
    assert hardware_switch(rule_context(profile())).threshold == "nvidia-gpu"
    assert team_hpc_switch(rule_context(profile(team_skill="hpc"))) is None
    assert team_hpc_switch(rule_context(profile())).threshold == "hpc"
    assert cross_platform_switch(rule_context(profile(needs={"cross_platform": True}))) is None
    assert cross_platform_switch(rule_context(profile())).metric == "profile.needs.cross_platform"


def test_build_tier_and_notes():
    context = rule_context(profile(needs={"cross_platform": True}))
    decisions = [decide_fusion(context)]
    tier1, tier2, tier3 = (build_tier(context, number, decisions) for number in (1, 2, 3))
    assert not tier1.primary and tier3.primary
    assert tier1.options() == {"fusion": "torch-compile"} and tier1.fits_team
    assert not tier2.fits_team
    assert tier2.notes[1].text == "cutlass needs more skill than the framework team has: listed to show the gap"
    assert "accepting some per-platform loss" in tier3.notes[0].text
    hpc = rule_context(profile(team_skill="hpc"))
    assert "global hot spots" in tier_notes(hpc, 2, [decide_fusion(hpc).tier2])[0].text
    assert "no deep self-development" in tier_notes(rule_context(profile(hardware="x86-cpu")), 2, [])[0].text


def test_evidence_base():
    assert evidence_base(evidence_facts([], "x86-cpu"))[0] == 0.5
    assert evidence_base(evidence_facts([evidence(gemm_cases(1.0))], "nvidia-gpu"))[0] == 0.65
    assert evidence_base(evidence_facts([evidence(gemm_cases(1.0))], "x86-cpu"))[0] == 0.85


def test_case_quality_factor():
    assert case_quality_factor(QualityCounts()) == (1.0, [])
    factor, notes = case_quality_factor(QualityCounts(ok=8, noisy=4, failed=2))
    assert factor == 1.0 - 0.5 * 0.2 - 0.3 * 0.5
    assert notes == [
        "2 of 10 attempted cases failed",
        "4 of 8 timed cases were noisy (IQR/median above the noise threshold)",
    ]


def test_contention_factor():
    busy = evidence([case("gemm", "a", "fp32", {"m": 1}, 1.0)], busy=True)
    assert contention_factor(evidence_facts([busy], "x86-cpu"))[0] == 0.9
    assert contention_factor(evidence_facts([], "x86-cpu")) == (1.0, [])


def test_unknown_claims(knowledge):
    context = rule_context(profile(hardware="iluvatar-gpu", workload="both", needs={"dynamic_shapes": True}))
    rationale = decide_fusion(rule_context(profile())).tier1.rationale
    corex = Choice(concern="deployment", option="corex", rationale=rationale)
    notes = unknown_claims([corex], knowledge, context.profile)
    assert notes == ["corex.dynamic_shapes is unknown: probe it before relying on it"]
    assert unknown_claims([corex.model_copy(update={"concern": "gemm"})], knowledge, context.profile) == []


def test_overall_confidence_is_clamped_and_explained(knowledge):
    facts = evidence_facts([], "hygon-dcu")
    rationale = decide_fusion(rule_context(profile())).tier1.rationale
    gaps = [Gap(concern=concern, rationale=rationale) for concern in ("attention", "fusion")]
    value, notes = overall_confidence(facts, [], gaps, knowledge, profile(hardware="hygon-dcu"))
    assert value == round(0.5 * 0.95**2, 2) and notes[-1] == "tier 1 leaves 2 concern(s) open: attention, fusion"
    assert 0.05 <= value <= 0.95
