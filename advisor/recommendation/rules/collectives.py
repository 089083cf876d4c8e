"""Collectives, when a job spans devices: the target's collective library, checked by a strong-scaling test.

Method #hot-operators, #collectives: MoE adds expert routing and all-to-all; data parallel needs gradient all-reduce; many
libraries look good on one card and collapse on eight.
"""

from __future__ import annotations

from advisor.knowledge.models import Candidate
from advisor.profile import Profile
from advisor.recommendation.choices import entry_from, rejections_from
from advisor.recommendation.citations import cite_claim, cite_profile, line
from advisor.recommendation.context import ConcernDecision, RuleContext, skipped_decision
from advisor.recommendation.models import Choice, Gap, Rationale, SwitchCondition
from advisor.recommendation.selection import pick
from advisor.recommendation.switches import switch

SCALING_EFFICIENCY_MIN = 0.7  # strong-scaling efficiency 1 -> N devices below which the collectives are suspect


def workload_lines(profile: Profile) -> list[Rationale]:
    """What the collectives carry for this model and workload."""
    text = f"{profile.needs.devices} devices per job: collectives are on the critical path"
    lines = [line(text, cite_profile(profile, "needs.devices"))]
    if profile.model_type == "moe":
        text = "MoE: expert routing adds all-to-all exchanges and sharded expert compute"
        lines.append(line(text, cite_profile(profile, "model_type")))
    if profile.trains:
        text = "training: gradient all-reduce (data parallel) and sharded linear layers (tensor parallel)"
        lines.append(line(text, cite_profile(profile, "workload")))
    return lines


def scaling_test_line(candidate: Candidate) -> Rationale | None:
    """The candidate's own strong-scaling warning, when its risks carry one."""
    for index, risk in enumerate(candidate.risks):
        if "strong-scaling" in risk.value:
            return line(risk.value, cite_claim(candidate, f"risks[{index}]"))
    return None


def scaling_switch(devices: int) -> SwitchCondition:
    """A 1 -> N strong-scaling run below the efficiency floor puts the collectives in question."""
    description = (
        f"strong-scaling efficiency from 1 to {devices} devices < {SCALING_EFFICIENCY_MIN}: "
        "revisit the collectives and their overlap with compute"
    )
    metric = "evidence.strong_scaling_efficiency"
    return switch("strong-scaling-collapse", description, metric, "<", SCALING_EFFICIENCY_MIN, concern="collectives")


def not_needed(profile: Profile) -> ConcernDecision:
    """One device: nothing to decide until jobs span devices."""
    reason = line("one device per job: no collectives", cite_profile(profile, "needs.devices"))
    description = "jobs span more than one device: choose a collective library and run a 1 -> N strong-scaling test"
    return skipped_decision("collectives", reason, switch("multi-device", description, "profile.needs.devices", ">", 1))


def decide_collectives(context: RuleContext) -> ConcernDecision:
    """Tier 1 collective library on multi-device jobs; skipped on one device."""
    profile = context.profile
    if profile.needs.devices <= 1:
        return not_needed(profile)
    chosen = pick(context, "collectives", context.official("collectives"))
    lines = workload_lines(profile)
    if chosen.chosen is not None:
        scaling = scaling_test_line(chosen.chosen)
        lines += [scaling] if scaling is not None else []
    reason = f"no collective library for {profile.hardware} in the knowledge base"
    tier1 = entry_from(chosen, "collectives", context, gap_reason=reason, lines=lines)
    portable = line(
        "no cross-platform collective library in the knowledge base: each platform keeps its own",
        cite_profile(profile, "needs.cross_platform"),
    )
    return ConcernDecision(
        concern="collectives",
        tier1=tier1,
        tier3=Gap(concern="collectives", rationale=(portable,)),
        rejections=rejections_from(chosen, "collectives"),
        switch_conditions=(scaling_switch(profile.needs.devices),) if isinstance(tier1, Choice) else (),
    )
