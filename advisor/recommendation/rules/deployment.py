"""Deployment runtime, for inference: the platform's official runtimes and serving engines, in order.

The runtime must carry what the profile needs: the quantized dtype and, with dynamic shapes, a
dynamic-shape path.
"""

from __future__ import annotations

from advisor.profile import Profile
from advisor.recommendation.choices import entry_from, rejections_from
from advisor.recommendation.citations import cite_claim, cite_profile, line
from advisor.recommendation.context import ConcernDecision, RuleContext, skipped_decision
from advisor.recommendation.models import Rationale
from advisor.recommendation.rules.tiers import skill_switches, tier3_entry
from advisor.recommendation.selection import pick
from advisor.recommendation.switches import switch


def runtime_requirements(profile: Profile) -> tuple[str, ...]:
    """Capabilities the runtime must not deny: inference, the quantized dtype, dynamic shapes."""
    needed = ["inference"]
    if profile.needs.quantized:
        needed.append(profile.needs.quantization)
    if profile.needs.dynamic_shapes:
        needed.append("dynamic_shapes")
    return tuple(needed)


def requirement_lines(context: RuleContext, candidate_id: str, requirements: tuple[str, ...]) -> list[Rationale]:
    """One line per capability the profile needs from the runtime, with the claim that supports it."""
    candidate = context.knowledge.get(candidate_id)
    lines = []
    for attribute in requirements[1:]:
        claim = getattr(candidate, attribute)
        text = f"{attribute.replace('_', ' ')}: {claim.value}" + (f" ({claim.note})" if claim.note else "")
        lines.append(line(text, cite_claim(candidate, attribute)))
    return lines


def decide_deployment(context: RuleContext) -> ConcernDecision:
    """Tier 1 runtime for inference workloads; skipped for training only."""
    profile = context.profile
    if not profile.serves:
        reason = line("training only: no deployment runtime", cite_profile(profile, "workload"))
        return skipped_decision("deployment", reason, switch("serving-needed", "the model is also served: choose a "
                                "deployment runtime", "profile.workload", "!=", "training"))  # fmt: skip
    requirements = runtime_requirements(profile)
    preference = context.official("deployment")
    chosen = pick(context, "deployment", preference, requirements=requirements)
    lines = requirement_lines(context, chosen.chosen.id, requirements) if chosen.chosen is not None else []
    reason = f"no deployment runtime for {profile.hardware} in the knowledge base: serve from the framework"
    return ConcernDecision(
        concern="deployment", tier1=entry_from(chosen, "deployment", context, gap_reason=reason, lines=lines),
        tier3=tier3_entry(context, "deployment", requirements), rejections=rejections_from(chosen, "deployment"),
        switch_conditions=tuple(skill_switches(chosen, "deployment", context, preference)),
    )  # fmt: skip
