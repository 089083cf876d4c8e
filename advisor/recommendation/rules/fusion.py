"""Normalization and elementwise fusion: Triton or torch.compile on NVIDIA, Ascend C / TBE / ATC on Ascend, oneDNN.

The method's Ascend fact drives the Ascend choice: one LayerNorm took 18% of model time unfused and
about 3% once fused with the following activation in one Ascend C kernel.
"""

from __future__ import annotations

from advisor.knowledge.models import Candidate
from advisor.recommendation.choices import entry_from, rejections_from
from advisor.recommendation.citations import cite_claim, line
from advisor.recommendation.context import ConcernDecision, RuleContext
from advisor.recommendation.hot_operators import hot_spot_line, hotop_shares
from advisor.recommendation.models import Rationale, Rejection
from advisor.recommendation.rules.tiers import skill_switches, tier2_entry, tier3_entry
from advisor.recommendation.selection import pick

TIER1_FUSION: dict[str, tuple[str, ...]] = {
    "nvidia-gpu": ("triton", "torch-compile", "cudnn"),
    "ascend-npu": ("ascend-c", "tbe", "atc-acl"),
    "x86-cpu": ("onednn", "torch-compile", "openvino", "onnxruntime"),
    "arm-cpu": ("onednn", "torch-compile", "onnxruntime", "openvino"),
    "cambricon-mlu": ("cnnl-bang",),
}
LAYERNORM_FUSER = "ascend-c"


def layernorm_fusion_line(candidate: Candidate) -> Rationale | None:
    """The measured LayerNorm fusion gain, for the candidate whose fusion claim carries it."""
    if candidate.id != LAYERNORM_FUSER:
        return None
    text = ("one LayerNorm took 18% of model time unfused and about 3% once fused with the following activation "
            "in one Ascend C kernel")  # fmt: skip
    return line(text, cite_claim(candidate, "fusion"))


def launch_count_line(candidate: Candidate, serves: bool) -> Rationale | None:
    """For inference: judge a fusion by kernel launches per generated token, when the candidate's risks say so."""
    if not serves:
        return None
    for index, risk in enumerate(candidate.risks):
        if "kernel launches" in risk.value:
            return line(risk.value, cite_claim(candidate, f"risks[{index}]"))
    return None


def with_layernorm_fact(rejections: tuple[Rejection, ...], knowledge_fuser: Candidate) -> tuple[Rejection, ...]:
    """Rejecting Ascend C also gives up the LayerNorm fusion gain: say so in its reasons."""
    fact = layernorm_fusion_line(knowledge_fuser)
    if fact is None:
        return rejections
    updated = []
    for rejection in rejections:
        if rejection.option == LAYERNORM_FUSER:
            given_up = Rationale(text=f"given up: {fact.text}", cites=fact.cites)
            rejection = rejection.model_copy(update={"reasons": rejection.reasons + (given_up,)})
        updated.append(rejection)
    return tuple(updated)


def decide_fusion(context: RuleContext) -> ConcernDecision:
    """Tier 1 fuser within the team's skill; the skilled options above it become switch conditions."""
    profile = context.profile
    preference = TIER1_FUSION.get(profile.hardware, ())
    chosen = pick(context, "fusion", preference)
    lines: list[Rationale] = []
    if chosen.chosen is not None:
        share = hot_spot_line(hotop_shares(context.facts, profile), "fusion")
        found = (share, layernorm_fusion_line(chosen.chosen), launch_count_line(chosen.chosen, profile.serves))
        lines = [found_line for found_line in found if found_line is not None]
    reason = f"no fusion option for a {profile.team_skill} team ({profile.workload}) on {profile.hardware} in the KB"
    rejections = rejections_from(chosen, "fusion")
    if LAYERNORM_FUSER in context.knowledge.ids():
        rejections = with_layernorm_fact(rejections, context.knowledge.get(LAYERNORM_FUSER))
    return ConcernDecision(
        concern="fusion",
        tier1=entry_from(chosen, "fusion", context, gap_reason=reason, lines=lines),
        tier2=tier2_entry(context, "fusion"),
        tier3=tier3_entry(context, "fusion"),
        rejections=rejections,
        switch_conditions=tuple(skill_switches(chosen, "fusion", context, preference)),
    )
