"""Picking a candidate: hardware and concern from the knowledge base, workload, skill, capabilities; and the records."""

from __future__ import annotations

from recommendation_builders import profile, rule_context

from advisor.recommendation.choices import choice_from, gap_from, rejections_from
from advisor.recommendation.citations import cite_claim, cite_profile, line
from advisor.recommendation.selection import (
    phases,
    pick,
    requirement_reasons,
    serves,
    skill_reason,
    workload_reasons,
)


def test_serves_follows_the_knowledge_base(knowledge):
    assert serves(knowledge.get("cublas"), "nvidia-gpu", "gemm")
    assert not serves(knowledge.get("cublas"), "ascend-npu", "gemm")
    assert not serves(knowledge.get("cublas"), "nvidia-gpu", "attention")


def test_skill_reason(knowledge):
    assert skill_reason(knowledge.get("composable-kernel"), profile(team_skill="hpc")) is None
    reason = skill_reason(knowledge.get("composable-kernel"), profile(team_skill="kernel"))
    assert reason.text == "needs a hpc team; this team is kernel"
    assert [cite.ref for cite in reason.cites] == ["composable-kernel.skill", "team_skill"]
    assert skill_reason(knowledge.get("triton"), profile(team_skill="kernel")) is None
    assert skill_reason(knowledge.get("cutlass"), profile(team_skill="kernel")) is None  # the CuTe DSL route


def test_phases():
    assert phases(profile(workload="both"), "gemm") == ("training", "inference")
    assert phases(profile(workload="training"), "fusion") == ("training",)
    assert phases(profile(workload="both"), "deployment") == ("inference",)


def test_workload_and_requirement_reasons(knowledge):
    reasons = workload_reasons(knowledge.get("tensorrt"), profile(workload="training"), "fusion")
    assert [r.text for r in reasons] == ["does not run training (knowledge base: no); the workload is training"]
    assert workload_reasons(knowledge.get("tensorrt"), profile(workload="training"), "deployment") == []
    assert [r.text for r in requirement_reasons(knowledge.get("onednn"), ["int8", "ptq"])] == [
        "no PTQ support (knowledge base: not-applicable)"
    ]


def test_pick_takes_the_first_preferred_candidate_within_skill():
    chosen = pick(rule_context(profile(team_skill="framework")), "fusion", ("triton", "torch-compile", "cudnn"))
    assert chosen.chosen.id == "torch-compile" and chosen.fits_team
    # preferred first, then the platform's other candidates in knowledge-base order
    assert chosen.alternatives == (
        "cudnn",
        "flashinfer",
        "flex-attention",
        "onnxruntime",
        "tensorrt",
        "transformer-engine",
    )
    assert [(candidate.id, [r.text for r in reasons]) for candidate, reasons in chosen.blocked] == [
        ("triton", ["needs a kernel team; this team is framework"]),
        ("cutlass", ["needs a kernel team; this team is framework"]),
    ]


def test_pick_never_chooses_a_candidate_outside_the_preference():
    chosen = pick(rule_context(profile(team_skill="hpc")), "gemm", ("cublas",))
    assert chosen.chosen.id == "cublas"
    assert set(chosen.alternatives) == {"cutlass", "triton", "flashinfer", "transformer-engine"}
    assert not set(chosen.alternatives) & {"mlx", "xla", "pallas"}  # they run on NVIDIA GPUs, outside its ecosystem
    assert pick(rule_context(profile()), "gemm", ()).chosen is None


def test_pick_with_a_skill_gap_allowed_says_it_does_not_fit():
    chosen = pick(rule_context(profile()), "gemm", ("cutlass",), allow_skill_gap=True, consider_all=False)
    assert chosen.chosen.id == "cutlass" and not chosen.fits_team
    on_amd = pick(
        rule_context(profile(hardware="amd-gpu", team_skill="kernel")),
        "gemm",
        ("composable-kernel",),
        allow_skill_gap=True,
        consider_all=False,
    )
    assert on_amd.chosen.id == "composable-kernel" and not on_amd.fits_team


def test_pick_honours_extra_blockers_and_hardware():
    context = rule_context(profile())
    why = line("measured too slow", cite_profile(context.profile, "hardware"))
    chosen = pick(context, "gemm", ("cublas",), extra_blockers={"cublas": [why]}, consider_all=False)
    assert chosen.chosen is None and chosen.blocked[0][1] == (why,)
    elsewhere = pick(rule_context(profile(hardware="ascend-npu")), "gemm", ("cublas",), consider_all=False)
    assert elsewhere.chosen is None
    assert elsewhere.blocked[0][1][0].text == "the knowledge base does not list it for gemm on ascend-npu"


def test_choice_gap_and_rejection_records():
    context = rule_context(profile(team_skill="framework", workload="both"))
    chosen = pick(context, "fusion", ("triton", "torch-compile"))
    extra = line("a rule's own line", cite_profile(context.profile, "workload"))
    choice = choice_from(chosen, "fusion", context, settings={"mode": "x"}, lines=[extra])
    assert choice.option == "torch-compile" and choice.settings == {"mode": "x"}
    texts = [r.text for r in choice.rationale]
    assert texts[0] == "a rule's own line" and texts[-1].startswith("watch: ") and len(texts) <= 4
    assert not any("serves" in text or "support: yes" in text for text in texts)  # no filler
    bare = choice_from(chosen, "fusion", context)
    assert bare.rationale[0].text.startswith("PyTorch") or "stack's" in bare.rationale[0].text
    rejected = rejections_from(chosen, "fusion")
    assert (
        rejected[0].option == "triton" and rejected[0].reasons[0].text == "needs a kernel team; this team is framework"
    )
    gap = gap_from(pick(context, "fusion", ("triton",), consider_all=False), "fusion", context, "nothing fits")
    assert [r.text for r in gap.rationale] == ["nothing fits", "Triton: needs a kernel team; this team is framework"]
    assert cite_claim(context.knowledge.get("triton"), "skill").source == "method#team-skill"
