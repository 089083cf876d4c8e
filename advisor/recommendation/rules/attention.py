"""Attention: the official kernels of the target; flash-style (O(N) memory) kernels mandatory for long context."""

from __future__ import annotations

from collections.abc import Mapping

from advisor.profile import Profile
from advisor.recommendation.choices import engine_choice, entry_from, rejections_from
from advisor.recommendation.citations import cite_compatibility, cite_profile, fact_line, facts_line, line
from advisor.recommendation.context import ConcernDecision, RuleContext, TierEntry, skipped_decision
from advisor.recommendation.facts import EvidenceFacts, Fact, evidence_metric
from advisor.recommendation.hot_operators import hot_spot_line, hotop_shares
from advisor.recommendation.models import Choice, Rationale, SwitchCondition
from advisor.recommendation.policy import LINEAR_MAX, QUADRATIC_MIN
from advisor.recommendation.rules.tiers import tier2_entry, tier3_entry
from advisor.recommendation.selection import pick
from advisor.recommendation.switches import switch
from advisor.vision_models import vision_transformer
from probes.attention.report import FUSED_ATTENTION_MEMORY_GROWTH, memory_growth_reading


def needs_attention(profile: Profile) -> bool:
    """Every model type but the CNN has attention layers, and so does a vision transformer planned on the CNN's stacks
    (ViT, DINOv2: its patches' attention)."""
    return profile.model_type != "cnn" or vision_transformer(profile.model_name)


def measured_growth(facts: EvidenceFacts, option: str, measured_as: Mapping[str, str]) -> Fact | None:
    """The memory-growth fact of the probe implementation that stands for a knowledge-base option (`measured_as`:
    the knowledge base's policy, option -> implementation)."""
    implementation = measured_as.get(option)
    return facts.usable(memory_growth_reading(implementation).name) if implementation else None


def quadratic_versus_linear(facts: EvidenceFacts) -> Rationale | None:
    """Naive attention ~N^2 while a fused kernel stays ~N: the measurement behind 'flash-style is mandatory'."""
    naive, fused = facts.usable(memory_growth_reading("naive").name), facts.usable(FUSED_ATTENTION_MEMORY_GROWTH.name)
    if naive is None or fused is None or naive.value < QUADRATIC_MIN or fused.value > LINEAR_MAX:
        return None
    text = (
        f"{naive.figure} while {fused.figure}: materialized scores grow quadratically, "
        "so flash-style attention is mandatory for long context"
    )
    return facts_line(text, naive, fused)


def long_context_blockers(context: RuleContext, options: tuple[str, ...]) -> dict[str, list[Rationale]]:
    """Options ruled out for long context: super-linear memory measured on the target. A measurement on other
    hardware never rules a target option out (its kernels differ), and nothing is ruled out unmeasured: Transformer
    Engine documents cuDNN fused attention as its preferred path on Hopper and newer."""
    blockers: dict[str, list[Rationale]] = {}
    for option in options:
        fact = measured_growth(context.facts, option, context.knowledge.policy.measured_attention)
        if fact is not None and not fact.on_target:
            continue
        if fact is not None and fact.value > LINEAR_MAX:
            blockers[option] = [fact_line(f"{fact.figure}: not O(N), and long context needs linear memory", fact)]
    return blockers


def growth_lines(facts: EvidenceFacts, option: str, measured_as: Mapping[str, str]) -> list[Rationale]:
    """The measured memory growth of the chosen option: applied on the target, a note from other hardware."""
    fact = measured_growth(facts, option, measured_as)
    if fact is None:
        return []
    if fact.on_target:
        return [fact_line(f"measured {fact.figure}", fact)]
    text = f"{fact.figure}, on another device's kernel for the same API: not applied; measure it on {facts.target}"
    return [fact_line(text, fact)]


def attention_preference(context: RuleContext, long_context: bool) -> tuple[tuple[str, ...], Rationale | None]:
    """The platform's kernels, narrowed to those the serving engine or the training layers run."""
    preference = context.official("attention", long_context=long_context)
    host = (
        context.stack.runtime if context.stack.serving_engine and not context.profile.trains else context.stack.layers
    )
    if host is None:
        return preference, None
    runs = context.knowledge.compatibility.attention_kernels_of(host)
    if not runs:
        return preference, None
    if runs[0] == host and not context.profile.trains:  # its default backend is its own kernels: those, not a library
        return (), None
    narrowed = tuple(o for o in preference if o in runs)
    if not narrowed:  # the engine's kernels on this platform are not recorded: the platform's own apply
        return preference, None
    candidate = context.knowledge.get(host)
    claim = context.knowledge.compatibility.attention_kernels[host]
    text = f"runs inside {candidate.name}, which ships its own attention backends" + (
        f": {claim.note}" if claim.note else ""
    )
    cites = [cite_compatibility("attention_kernels", host, claim)]
    device = context.device
    first = context.knowledge.compatibility.attention_first(host, device.architecture) if device is not None else None
    if first in narrowed and device is not None:  # its own order on this architecture (TE: cuDNN first on sm_90+)
        narrowed = (first, *(option for option in narrowed if option != first))
        text += f" On {device.name} ({device.architecture}) it tries {context.knowledge.get(first).name} first."
        cites.append(
            cite_compatibility("attention_first_on", host, context.knowledge.compatibility.attention_first_on[host])
        )
    return narrowed, line(text, *cites)


def attention_switches(
    entry: TierEntry | None, long_context: bool, measured_as: Mapping[str, str]
) -> list[SwitchCondition]:
    """Long context not needed yet: switch when it is, where tier 1 has not decided attention yet (a chosen kernel is
    already flash-style, and a platform with no attention kernel in the knowledge base has none to switch to: the
    switch would change nothing); needed: switch when the chosen kernel stops being O(N)."""
    if not long_context and entry is not None:
        return []  # a chosen kernel is already flash-style; a gap has no kernel in the knowledge base to switch to
    if not long_context:
        description = "long context becomes a need: flash-style attention becomes mandatory"
        metric = "profile.needs.long_context"
        return [switch("long-context-needed", description, metric, "==", True, concern="attention")]
    if isinstance(entry, Choice) and entry.option in measured_as:
        others = f": {', '.join(entry.alternatives)}" if entry.alternatives else ""
        description = (
            f"{entry.option} attention memory grows faster than N^{LINEAR_MAX} on the target, so the memory-linear "
            "kernel is not what runs there: check which backend the framework selects at these shapes (a silent "
            f"fallback), else move to another memory-linear attention kernel the platform documents{others}"
        )
        metric = evidence_metric(memory_growth_reading(measured_as[entry.option]))
        condition_id = f"{entry.option}-memory-superlinear"
        return [switch(condition_id, description, metric, ">", LINEAR_MAX, concern="attention")]
    return []


def decide_attention(context: RuleContext) -> ConcernDecision:
    """Tier 1 attention kernel; long context rules out whatever is not O(N) in memory."""
    profile = context.profile
    if not needs_attention(profile):
        return skipped_decision("attention", line("a CNN has no attention layers", cite_profile(profile, "model_type")))
    long_context = profile.needs.long_context
    preference, hosted = attention_preference(context, long_context)
    if not preference and context.stack.serving_engine and not profile.trains and context.stack.runtime is not None:
        engine = context.knowledge.get(context.stack.runtime)
        return ConcernDecision(
            concern="attention",
            tier1=engine_choice(context, "attention", engine),
            # a kernel team may still replace the engine's attention where it is the hot spot (review 258 p02: MLA
            # decode on B200 under TensorRT-LLM got no attention route)
            tier2=tier2_entry(context, "attention", host=engine.id),
            tier3=tier3_entry(context, "attention"),
        )
    blockers = long_context_blockers(context, preference) if long_context else {}
    chosen = pick(context, "attention", preference, extra_blockers=blockers, consider_all=hosted is None)
    evidence = quadratic_versus_linear(context.facts) if long_context else None
    share = hot_spot_line(hotop_shares(context.facts, profile), "attention")
    lines = [line for line in (share, hosted, evidence) if line is not None]
    measured_as = context.knowledge.policy.measured_attention
    lines += growth_lines(context.facts, chosen.chosen.id, measured_as) if chosen.chosen is not None else []
    reason = f"no attention kernel for {profile.hardware} in the knowledge base: the framework's attention (SDPA) stays"
    if context.stack.serving_engine and profile.trains and context.stack.runtime is not None:
        # a job that trains and serves: the serving engine runs its own attention over its paged KV cache, SDPA is the
        # training side's (review 252 p13: "SDPA stays" under a vLLM deployment)
        engine = context.knowledge.get(context.stack.runtime)
        reason = (
            f"no attention kernel for {profile.hardware} in the knowledge base: training keeps the framework's "
            f"attention (SDPA); serving runs {engine.name}'s own attention backend over its paged KV cache"
        )
    reason += "; use its flash backend" if evidence is not None else ""
    host = context.stack.runtime if context.stack.serving_engine and not profile.trains else context.stack.layers
    settings = {"via": host} if hosted is not None and host is not None else {}
    tier1 = entry_from(chosen, "attention", context, gap_reason=reason, lines=lines, settings=settings)
    if evidence is not None and not isinstance(tier1, Choice):
        tier1 = tier1.model_copy(update={"rationale": tier1.rationale + (evidence,)})
    return ConcernDecision(
        concern="attention",
        tier1=tier1,
        tier2=tier2_entry(context, "attention"),
        tier3=tier3_entry(context, "attention"),
        rejections=rejections_from(chosen, "attention"),
        switch_conditions=(  # a generating LLM: an embedding encoder or Whisper (30 s windows) grows no long context
            tuple(attention_switches(tier1, long_context, measured_as))
            if profile.llm and profile.serving_task == "generation"
            else ()
        ),
    )  # a diffusion or vision model has no context length to grow
