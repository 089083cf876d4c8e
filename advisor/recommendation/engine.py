"""recommend(profile, evidence_list) -> Recommendation: pure, deterministic, no I/O beyond the built-in knowledge base.

Each concern is decided by its own rule module; this module only composes them: tiers, merged
rejections, switch conditions and the stated confidence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from advisor.knowledge.models import CONCERNS, Concern, KnowledgeBase
from advisor.profile import Profile
from advisor.recommendation.context import ConcernDecision, RuleContext
from advisor.recommendation.facts import evidence_facts
from advisor.recommendation.models import Rationale, Recommendation, Rejection, SwitchCondition, Tier
from advisor.recommendation.rules.attention import decide_attention
from advisor.recommendation.rules.collectives import decide_collectives
from advisor.recommendation.rules.confidence import overall_confidence
from advisor.recommendation.rules.deployment import decide_deployment
from advisor.recommendation.rules.dynamic_shapes import decide_dynamic_shapes
from advisor.recommendation.rules.fusion import decide_fusion
from advisor.recommendation.rules.gemm import decide_gemm
from advisor.recommendation.rules.quantization import decide_quantization
from advisor.recommendation.rules.tiers import cross_platform_switch, hardware_switch, team_hpc_switch
from advisor.recommendation.tiers import build_tier
from probes.models import Evidence

# In the knowledge base's concern order: every list in the output follows it.
DECIDERS: tuple[Callable[[RuleContext], ConcernDecision], ...] = (
    decide_gemm,
    decide_attention,
    decide_fusion,
    decide_quantization,
    decide_dynamic_shapes,
    decide_collectives,
    decide_deployment,
)


def recommend(
    profile: Profile, evidence_list: Sequence[Evidence], knowledge: KnowledgeBase | None = None
) -> Recommendation:
    """The tiered recommendation for a profile from its evidence (measured on the target or elsewhere)."""
    if knowledge is None:
        from advisor.knowledge.loader import load_knowledge_base

        knowledge = load_knowledge_base()
    facts = evidence_facts(evidence_list, profile.hardware)
    context = RuleContext(profile=profile, knowledge=knowledge, facts=facts)
    decisions = [decide(context) for decide in DECIDERS]
    tiers = tuple(build_tier(context, number, decisions) for number in (1, 2, 3))
    confidence, notes = overall_confidence(facts, tiers[0].choices, tiers[0].gaps, knowledge, profile)
    return Recommendation(
        profile=profile,
        tiers=tiers,
        rejected=merge_rejections(decisions, tiers[0]),
        switch_conditions=collect_switches(context, decisions, tiers[1]),
        skipped_concerns=tuple(decision.skipped for decision in decisions if decision.skipped is not None),
        confidence=confidence,
        confidence_notes=notes,
        proxy_evidence=facts.proxy,
        evidence_sources=facts.sources,
    )


def merge_rejections(decisions: Sequence[ConcernDecision], tier1: Tier) -> tuple[Rejection, ...]:
    """One rejection per option (sorted by id), its concerns in concern order.

    A reason given for only some of the option's concerns says which; an option is never rejected
    for a concern it is the tier-1 choice for.
    """
    chosen = {(choice.option, choice.concern) for choice in tier1.choices}
    per_option: dict[str, dict[str, tuple[Rationale, list[Concern]]]] = {}
    for decision in decisions:
        for rejection in decision.rejections:
            for concern in rejection.concerns:
                if (rejection.option, concern) in chosen:
                    continue
                for reason in rejection.reasons:
                    entry = per_option.setdefault(rejection.option, {}).setdefault(reason.text, (reason, []))
                    entry[1].append(concern)
    merged = []
    for option in sorted(per_option):
        reasons = per_option[option]
        concerns = sorted({c for _, listed in reasons.values() for c in listed}, key=CONCERNS.index)
        texts = []
        for reason, listed in reasons.values():
            scope = sorted(set(listed), key=CONCERNS.index)
            prefix = "" if scope == concerns else f"for {', '.join(scope)}: "
            texts.append(Rationale(text=prefix + reason.text, cites=reason.cites))
        merged.append(Rejection(option=option, concerns=tuple(concerns), reasons=tuple(texts)))
    return tuple(merged)


def collect_switches(
    context: RuleContext, decisions: Sequence[ConcernDecision], tier2: Tier
) -> tuple[SwitchCondition, ...]:
    """The concerns' switch conditions in concern order, then the tier-level ones; the first of each id wins."""
    switches: list[SwitchCondition | None] = [s for decision in decisions for s in decision.switch_conditions]
    if any(not choice.fits_team for choice in tier2.choices):
        switches.append(team_hpc_switch(context))
    switches += [cross_platform_switch(context), hardware_switch(context)]
    unique: dict[str, SwitchCondition] = {}
    for condition in switches:
        if condition is not None:
            unique.setdefault(condition.id, condition)
    return tuple(unique.values())
