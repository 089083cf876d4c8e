"""Tiers 2 and 3 per concern, the skill and hardware switches, the tier assembly, and the confidence factors."""

from __future__ import annotations

from dataclasses import replace

from recommendation_builders import case, evidence, gemm_cases, profile, rule_context

from advisor.recommendation.citations import cite_profile, line
from advisor.recommendation.context import StackPlan
from advisor.recommendation.facts import QualityCounts, evidence_facts
from advisor.recommendation.models import Choice, Gap
from advisor.recommendation.policy import NO_STACK
from advisor.recommendation.rules.confidence import (
    case_quality_factor,
    contention_factor,
    evidence_base,
    overall_confidence,
    unknown_claims,
)
from advisor.recommendation.rules.fusion import decide_fusion
from advisor.recommendation.rules.tiers import (
    portable_preference,
    tier2_entry,
    tier2_preference,
    tier3_entry,
)
from advisor.recommendation.tiers import build_tier, tier2_notes, tier_notes


def test_tier2_entry_follows_the_team_skill():
    assert tier2_entry(rule_context(profile()), "deployment") is None
    framework = tier2_entry(rule_context(profile()), "gemm")
    assert framework.option == "triton" and not framework.fits_team
    assert "maintenance cost" in framework.rationale[0].text
    kernel = tier2_entry(rule_context(profile(team_skill="kernel")), "gemm")
    assert kernel.option == "triton" and kernel.fits_team
    assert tier2_entry(rule_context(profile(team_skill="kernel")), "attention").option == "triton"
    assert tier2_entry(rule_context(profile(team_skill="hpc")), "gemm").option == "cutlass"
    ascend_kernel = tier2_entry(rule_context(profile(hardware="ascend-npu", team_skill="kernel")), "gemm")
    assert ascend_kernel.option == "ascend-c" and ascend_kernel.fits_team  # Huawei: custom operators in C/C++ APIs
    hpc = tier2_entry(rule_context(profile(hardware="ascend-npu", team_skill="hpc")), "gemm")
    assert hpc.option == "ascend-c" and hpc.fits_team
    assert (
        tier2_entry(rule_context(profile(hardware="amd-gpu", team_skill="hpc")), "gemm").option == "composable-kernel"
    )
    x86 = tier2_entry(rule_context(profile(hardware="x86-cpu")), "gemm")  # oneDNN's primitives and BRGeMM ukernel
    assert x86.option == "onednn" and not x86.fits_team  # writing them needs a kernel team
    assert tier2_entry(rule_context(profile(hardware="x86-cpu", team_skill="kernel")), "gemm").fits_team


def test_tier2_on_a_phone_takes_the_routes_its_documented_stacks_name():
    # The phone stacks (XNNPACK under ExecuTorch and LiteRT, llama.cpp's Android build) call KleidiAI's micro-kernels,
    # not Arm Compute Library (https://github.com/ARM-software/kleidiai#what-is-the-difference-between-the-compute-
    # library-for-the-arm-architecture-acl-and-kleidiai): on a mobile-class device tier 2 keeps only the routes a
    # mobile stack names; a server keeps the platform's order.
    phone = rule_context(profile(hardware="arm-cpu", device="armv9-mobile-sme2", team_skill="kernel"))
    assert "kleidiai" in tier2_preference(phone, "gemm")
    assert "arm-compute-library" not in tier2_preference(phone, "gemm")
    kernel = tier2_entry(phone, "gemm")
    assert kernel.option == "kleidiai" and kernel.fits_team
    framework = tier2_entry(rule_context(profile(hardware="arm-cpu", device="armv9-mobile-i8mm")), "quantization")
    assert framework.option == "kleidiai" and not framework.fits_team  # not ACL for being callable by the team
    server = rule_context(profile(hardware="arm-cpu", device="graviton4", team_skill="kernel"))
    assert server.stack.runtime == "llama-cpp"  # whose Graviton stack names KleidiAI: a kernel team extends it
    assert tier2_entry(server, "gemm").option == "kleidiai"
    no_runtime = replace(server, stack=StackPlan())  # a server keeps the platform's order otherwise
    assert tier2_preference(no_runtime, "gemm")[0] == "arm-compute-library"


def test_tier2_on_a_phone_keeps_every_route_where_no_mobile_stack_names_one():
    phone = rule_context(profile(hardware="arm-cpu", device="armv9-mobile-sme2", team_skill="kernel"))
    bare = phone.knowledge.model_copy(update={"stacks": ()})
    context = replace(phone, knowledge=bare)
    assert context.documented_on_mobile() == frozenset()
    # every route stays (the phone's runtime keeps its own kernels, so the micro-kernel library leads the order)
    assert sorted(tier2_preference(context, "gemm")) == sorted(context.platform.deep_development.value)


def test_tier3_entry_runs_on_every_named_family():
    assert tier3_entry(rule_context(profile()), "attention").option == "triton"
    assert tier3_entry(rule_context(profile(team_skill="kernel")), "gemm").option == "triton"
    ascend = tier3_entry(rule_context(profile(hardware="ascend-npu")), "gemm")  # Triton through triton-ascend
    assert ascend.option == "triton" and not ascend.fits_team
    assert isinstance(tier3_entry(rule_context(profile(hardware="cambricon-mlu")), "gemm"), Gap)
    three = profile(team_skill="kernel", needs={"cross_platform": True, "other_hardware": ["amd-gpu", "ascend-npu"]})
    context = rule_context(three)
    for option in portable_preference(context, "gemm"):
        assert {"nvidia-gpu", "amd-gpu", "ascend-npu"} <= set(context.knowledge.get(option).hardware.value)
    collectives = tier3_entry(context, "collectives")
    assert isinstance(collectives, Gap) and "amd-gpu: rccl; ascend-npu: hccl" in collectives.rationale[0].text


def test_tier_2_beyond_the_team_names_the_least_skill_that_opens_it():
    # Review 25: the least skill that uses tier 2's options ("kernel" where Triton opens it, not always "hpc"); since
    # review 126 it is tier 2's note, not a switch condition (a team's skill is the profile's to state, not measured).
    def gap_note(option: str, skill: str = "framework") -> str:
        choice = Choice(
            concern="gemm",
            option=option,
            rationale=(line("tier 2", cite_profile(profile(), "team_skill")),),
            fits_team=False,
        )
        notes = tier2_notes(rule_context(profile(team_skill=skill)), [choice])
        return next(n.text for n in notes if n.text.startswith("writing kernels in"))

    assert gap_note("triton").endswith("open to a kernel team")
    assert gap_note("composable-kernel", "kernel").endswith("open to a hpc team")


def test_build_tier_and_notes():
    context = rule_context(profile(workload="training", needs={"cross_platform": True}))
    decisions = [decide_fusion(context)]
    tier1, tier2, tier3 = (build_tier(context, number, decisions) for number in (1, 2, 3))
    assert not tier1.primary and tier3.primary
    assert tier1.options() == {"fusion": "torch-compile"} and tier1.fits_team
    assert not tier2.fits_team
    assert (
        tier2.notes[1].text
        == "writing kernels in triton needs more skill than the framework team has: listed to show the gap, open to a kernel team"
    )
    assert "accepting some per-platform loss" in tier3.notes[0].text
    hpc = rule_context(profile(team_skill="hpc", workload="training"))
    assert "global hot spots" in tier_notes(hpc, 2, [decide_fusion(hpc).tier2])[0].text
    assert "no deep self-development" in tier_notes(rule_context(profile(hardware="x86-cpu")), 2, [])[0].text


def test_evidence_base():
    assert evidence_base(evidence_facts([], "x86-cpu"))[0] == 0.5
    assert evidence_base(evidence_facts([evidence(gemm_cases(1.0))], "nvidia-gpu"))[0] == 0.5  # proxy raises nothing
    assert evidence_base(evidence_facts([evidence(gemm_cases(1.0))], "x86-cpu"))[0] == 0.8
    failed = evidence([case("gemm", "torch.matmul", "fp32", {"m": 1}, None, status="failed")])
    base, notes = evidence_base(evidence_facts([failed], "x86-cpu"))
    assert base == 0.5 and "none was timed" in notes[0]


def test_case_quality_factor():
    assert case_quality_factor(QualityCounts()) == (1.0, [])
    factor, notes = case_quality_factor(QualityCounts(ok=8, noisy=4, failed=2))
    assert factor == 1.0 - 0.5 * 0.2 - 0.6 * 0.5
    assert notes == [
        "2 of 10 attempted cases failed",
        "4 of 8 timed cases were noisy (IQR/median above the noise threshold)",
    ]


def test_contention_factor():
    busy = evidence([case("gemm", "a", "fp32", {"m": 1}, 1.0)], busy=True)
    assert contention_factor(evidence_facts([busy], "x86-cpu"))[0] == 0.9
    assert contention_factor(evidence_facts([], "x86-cpu")) == (1.0, [])


def test_unknown_claims(knowledge):
    context = rule_context(profile(hardware="hygon-dcu", workload="both", needs={"dynamic_shapes": True}))
    rationale = decide_fusion(rule_context(profile())).tier1.rationale
    dtk = Choice(concern="deployment", option="dtk-hip", rationale=rationale)
    notes = unknown_claims([dtk], knowledge, context.profile)
    assert len(notes) == 1 and "(dtk-hip.dynamic_shapes is unknown): check it on the target" in notes[0]
    assert "supports dynamic shapes" in notes[0]
    assert unknown_claims([dtk.model_copy(update={"concern": "gemm"})], knowledge, context.profile) == []
    part = Choice(concern="deployment", option="PaddlePaddle", rationale=rationale, part_of="some-stack")
    assert unknown_claims([part], knowledge, context.profile) == []  # a named stack part has no claims to check


def test_overall_confidence_is_clamped_and_explained(knowledge):
    facts = evidence_facts([], "hygon-dcu")
    rationale = decide_fusion(rule_context(profile())).tier1.rationale
    gaps = [Gap(concern=concern, rationale=rationale) for concern in ("attention", "fusion")]
    value, notes = overall_confidence(facts, [], gaps, knowledge, profile(hardware="hygon-dcu"))
    platform = 0.7 + 0.3 * (
        1 / 6
    )  # hygon-dcu's official stack names only a GEMM library; one device needs no collectives
    # no stack chosen: the concerns are assembled one by one (NO_STACK)
    assert (
        value == round(0.5 * NO_STACK * platform * 0.95**2, 2)
        and notes[-1] == "tier 1 leaves 2 concern(s) open: attention, fusion"
    )
    assert any(note.startswith("hygon-dcu: the knowledge base names no official option") for note in notes)
    nvidia, _ = overall_confidence(evidence_facts([], "nvidia-gpu"), [], [], knowledge, profile())
    assert nvidia == round(0.5 * NO_STACK, 2) and value < nvidia
    assert 0.05 <= value <= 0.95
