"""Normalization and elementwise fusion: the platform's official fusers in order, within the team's skill.

A fuser whose fusion claim records a measured gain (Ascend C's LayerNorm case, method #ascend-data-movement)
has it quoted wherever it is chosen or rejected.
"""

from __future__ import annotations

from advisor.knowledge.models import Candidate, KnowledgeBase
from advisor.recommendation.choices import engine_choice, entry_from, rejections_from
from advisor.recommendation.citations import cite_claim, fact_line, line
from advisor.recommendation.context import ConcernDecision, RuleContext
from advisor.recommendation.facts import evidence_metric
from advisor.recommendation.hot_operators import hot_spot_line, hotop_shares
from advisor.recommendation.models import Rationale, Rejection, SwitchCondition
from advisor.recommendation.policy import COMPILE_PAYS, COMPILE_SLOWER
from advisor.recommendation.rules.tiers import tier2_entry, tier3_entry
from advisor.recommendation.selection import pick
from advisor.recommendation.switches import predicate, switch
from probes.fusion.report import FUSION_COMPILED_SPEEDUP, FUSION_LAUNCH_RATIO, LAUNCH_TARGET


def fusion_gain_line(candidate: Candidate) -> Rationale | None:
    """The fusion gain the knowledge base records for the candidate (its fusion claim's note), if any."""
    note = candidate.fusion.note
    if not note or "%" not in note:
        return None
    return line(note, cite_claim(candidate, "fusion"))


def launch_count_line(candidate: Candidate, serves: bool) -> Rationale | None:
    """For inference: judge a fusion by kernel launches per generated token, when the candidate's risks say so."""
    if not serves:
        return None
    for index, risk in enumerate(candidate.risks):
        if "kernel launches" in risk.value:
            return line(risk.value, cite_claim(candidate, f"risks[{index}]"))
    return None


def with_fusion_gain(rejections: tuple[Rejection, ...], knowledge: KnowledgeBase) -> tuple[Rejection, ...]:
    """Rejecting a fuser with a recorded gain gives that gain up: say so in its reasons."""
    updated = []
    for rejection in rejections:
        gain = fusion_gain_line(knowledge.get(rejection.option))
        if gain is not None:
            given_up = Rationale(text=f"given up: {gain.text}", cites=gain.cites)
            rejection = rejection.model_copy(update={"reasons": rejection.reasons + (given_up,)})
        updated.append(rejection)
    return tuple(updated)


def measured_fusion(context: RuleContext, chosen: Candidate | None) -> tuple[list[Rationale], list[SwitchCondition]]:
    """What the fusion probe measured on the target (launches and speed of torch.compile's fused chain), and
    the switch that evidence makes watchable: toward torch.compile when it pays, away when it is slower.

    Facts measured on other hardware are not used (`usable` gives only the target's speed figures)."""
    facts = context.facts
    launches, speed = facts.usable(FUSION_LAUNCH_RATIO.name), facts.usable(FUSION_COMPILED_SPEEDUP.name)
    lines: list[Rationale] = []
    if launches is not None:
        verdict = "meets" if launches.value <= LAUNCH_TARGET + 1e-9 else "misses"
        lines.append(
            fact_line(
                f"measured on {launches.hardware}: {launches.figure}; {verdict} the method's target of a third",
                launches,
            )
        )
    if speed is not None:
        effect = (
            "fusion saves time here" if speed.value >= 1.0 else "fusion saved launches, not time, at the measured size"
        )
        lines.append(fact_line(f"measured on {speed.hardware}: {speed.figure}: {effect}", speed))
    switches: list[SwitchCondition] = []
    if speed is None:
        return lines, switches  # nothing measured to watch: a review re-runs the same probes
    fuser = context.knowledge.policy.measured_fusion
    on_hardware = fuser in context.knowledge.for_hardware(context.profile.hardware).ids()
    if chosen is not None and chosen.id == fuser:
        switches.append(
            switch(
                "fusion-compile-slower",
                f"torch.compile's fused chain runs < {COMPILE_SLOWER}x eager's speed on the target: keep the "
                "small-op chains eager or revisit the fuser",
                evidence_metric(FUSION_COMPILED_SPEEDUP),
                "<",
                COMPILE_SLOWER,
                concern="fusion",
            )
        )
    elif on_hardware:
        switches.append(
            switch(
                "fusion-compile-pays",
                f"torch.compile's fused chain runs >= {COMPILE_PAYS}x eager with at most a third of its launches "
                "on the target: consider torch.compile for the small-op chains",
                evidence_metric(FUSION_COMPILED_SPEEDUP),
                ">=",
                COMPILE_PAYS,
                predicate(evidence_metric(FUSION_LAUNCH_RATIO), "<=", round(LAUNCH_TARGET, 4)),
                concern="fusion",
            )
        )
    return lines, switches


def decide_fusion(context: RuleContext) -> ConcernDecision:
    """Tier 1 fuser within the team's skill; the skilled options above it become switch conditions."""
    profile = context.profile
    # a CNN or diffusion model compiled by its graph runtime (ATC, TensorRT)
    compiles_it = not profile.llm and context.stack.runtime in context.knowledge.ids()
    if not profile.trains and (context.stack.serving_engine or compiles_it) and context.stack.runtime is not None:
        # a served model runs the fusion of what serves it: an LLM engine's, or the graph runtime's compiler for a
        # model it compiles; torch.compile is not in that path
        engine = context.knowledge.get(context.stack.runtime)
        if engine.fusion.value in ("yes", "partial"):
            return ConcernDecision(
                concern="fusion",
                tier1=engine_choice(context, "fusion", engine),
                tier2=tier2_entry(context, "fusion"),
                tier3=tier3_entry(context, "fusion"),
            )
    preference = context.official("fusion")
    chosen = pick(context, "fusion", preference)
    lines: list[Rationale] = []
    measured_lines, measured_switches = measured_fusion(context, chosen.chosen)
    if chosen.chosen is not None:
        share = hot_spot_line(hotop_shares(context.facts, profile), "fusion")
        found = (share, fusion_gain_line(chosen.chosen), launch_count_line(chosen.chosen, profile.serves))
        lines = [found_line for found_line in found if found_line is not None] + measured_lines
    reason = f"no fusion option for a {profile.team_skill} team ({profile.workload}) on {profile.hardware} in the KB"
    rejections = with_fusion_gain(rejections_from(chosen, "fusion"), context.knowledge)
    return ConcernDecision(
        concern="fusion",
        tier1=entry_from(chosen, "fusion", context, gap_reason=reason, lines=lines),
        tier2=tier2_entry(context, "fusion"),
        tier3=tier3_entry(context, "fusion"),
        rejections=rejections,
        switch_conditions=tuple(measured_switches),
    )
