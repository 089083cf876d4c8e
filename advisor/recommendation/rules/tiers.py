"""Tiers 2 and 3 for one concern (method #tiers), and the switch conditions that follow from skills.

Tier 2, deep self-development: the platform data's deep_development route for key operators; a concern
measured below hot_operators.MINOR_SHARE of the model's time (hotops) gets none.
Tier 3, multi-platform: the options that run on the most hardware families, Triton as the unified
layer where the knowledge base lists it for the target.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from advisor.knowledge.models import Concern
from advisor.recommendation.choices import entry_from
from advisor.recommendation.citations import cite_claim, line
from advisor.recommendation.context import RuleContext, TierEntry
from advisor.recommendation.hot_operators import CONCERN_GROUPS, hot_spot_line, hotop_shares, is_minor, share_text
from advisor.recommendation.models import Gap, Rationale, SwitchCondition
from advisor.recommendation.selection import Pick, pick
from advisor.recommendation.switches import switch

TIER2_CONCERNS: tuple[Concern, ...] = ("gemm", "attention", "fusion", "quantization")
TIER3_PREFERENCE: dict[str, tuple[str, ...]] = {
    "gemm": ("triton",),
    "attention": ("triton",),
    "fusion": ("triton", "torch-compile", "onnxruntime"),
    "quantization": ("onnxruntime",),
    "dynamic-shapes": ("torch-compile", "onnxruntime"),
    "collectives": (),
    "deployment": ("onnxruntime",),
}


def tier2_entry(
    context: RuleContext,
    concern: Concern,
    requirements: Sequence[str] = (),
    extra_blockers: Mapping[str, Sequence[Rationale]] | None = None,
) -> TierEntry | None:
    """The deep self-development option for a key-operator concern; None for the other concerns."""
    if concern not in TIER2_CONCERNS:
        return None
    shares = hotop_shares(context.facts, context.profile)
    if shares is not None and is_minor(shares, concern):
        groups = CONCERN_GROUPS[concern]
        text = f"not a hot spot: {share_text(shares, groups)}; deep self-development would not pay, tier 1 stays"
        return Gap(concern=concern, rationale=(shares.line(text, *groups),))
    share = hot_spot_line(shares, concern)
    preference = tuple(context.platform.deep_development.value)
    chosen = pick(context, concern, preference, requirements=requirements, extra_blockers=extra_blockers,
                  allow_skill_gap=True, consider_all=False)  # fmt: skip
    lines = [share] if share is not None else []
    if chosen.chosen is not None:
        cost = chosen.chosen.maintenance_cost
        text = f"maintenance cost {cost.value}: only for the operators profiling shows are global hot spots"
        lines.append(line(text, cite_claim(chosen.chosen, "maintenance_cost")))
    reason = f"no deep self-development candidate for {concern} on {context.profile.hardware} in the knowledge base"
    return entry_from(chosen, concern, context, gap_reason=reason, lines=lines)


def tier3_entry(
    context: RuleContext,
    concern: Concern,
    requirements: Sequence[str] = (),
    extra_blockers: Mapping[str, Sequence[Rationale]] | None = None,
) -> TierEntry:
    """The most portable option the knowledge base lists for the target; a Gap where there is none."""
    preference = TIER3_PREFERENCE[concern]
    chosen = pick(context, concern, preference, requirements=requirements, extra_blockers=extra_blockers,
                  allow_skill_gap=True, consider_all=False)  # fmt: skip
    lines = []
    if chosen.chosen is not None:
        families = chosen.chosen.hardware.value
        text = f"runs on {len(families)} hardware families in the knowledge base ({', '.join(families)})"
        lines.append(line(text, cite_claim(chosen.chosen, "hardware")))
    reason = (
        f"no cross-platform {concern} option in the knowledge base runs on {context.profile.hardware}; "
        "each platform keeps its tier-1 choice"
    )
    return entry_from(chosen, concern, context, gap_reason=reason, lines=lines)


def skill_switches(
    chosen: Pick, concern: Concern, context: RuleContext, preference: Sequence[str]
) -> list[SwitchCondition]:
    """For each preferred candidate ranked above the pick and ruled out by skill alone: switch when the team grows."""
    ranked = list(preference)
    limit = ranked.index(chosen.chosen.id) if chosen.chosen is not None and chosen.chosen.id in ranked else len(ranked)
    switches = []
    for candidate, reasons in chosen.blocked:
        skill_only = len(reasons) == 1 and reasons[0].cites[0].ref == f"{candidate.id}.skill"
        if candidate.id in ranked[:limit] and skill_only:
            needed = candidate.skill.value
            op, threshold = ("==", "hpc") if needed == "hpc" else ("!=", "framework")
            description = f"team_skill becomes {needed}: {candidate.id} becomes the tier-1 {concern} choice"
            condition_id = f"{concern}-{candidate.id}-skill"
            switches.append(switch(condition_id, description, "profile.team_skill", op, threshold, concern=concern))
    return switches


def hardware_switch(context: RuleContext) -> SwitchCondition:
    """Every tier-1 library is hardware-specific: a new target means a new recommendation."""
    hardware = context.profile.hardware
    description = f"hardware changes from {hardware}: re-run the probes on the new target and recommend again"
    return switch("hardware-changes", description, "profile.hardware", "!=", hardware)


def team_hpc_switch(context: RuleContext) -> SwitchCondition | None:
    """Tier 2 becomes open to the team once it has dedicated HPC engineers."""
    if context.profile.team_skill == "hpc":
        return None
    description = "team_skill becomes hpc: tier 2 (deep self-development of key operators) becomes available"
    return switch("team-skill-hpc", description, "profile.team_skill", "==", "hpc")


def cross_platform_switch(context: RuleContext) -> SwitchCondition | None:
    """Tier 3 leads once the business must run on more than one hardware family."""
    if context.profile.needs.cross_platform:
        return None
    description = "the business must run on more than one hardware family: tier 3 becomes the primary tier"
    return switch("cross-platform-needed", description, "profile.needs.cross_platform", "==", True)

