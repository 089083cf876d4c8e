"""Dynamic shapes: a path with dynamic-shape kernels, in the compile mode the recompilations call for.

Method #dynamic-shapes: many stacks fall back to slow generic kernels for variable shapes; prefer stacks
with dynamic-shape kernels (TensorRT optimization profiles, CUDA graphs, continuous batching). Where the
platform's data says its stack does not run dynamic shapes natively, pad to fixed shape buckets.
"""

from __future__ import annotations

from advisor.knowledge.models import CLAIMED_TASKS_ONLY, SERVING_LAYERS
from advisor.recommendation.choices import entry_from, rejection, rejections_from
from advisor.recommendation.citations import cite_claim, cite_platform, cite_profile, fact_line, facts_line, line
from advisor.recommendation.context import ConcernDecision, RuleContext, skipped_decision
from advisor.recommendation.facts import EvidenceFacts, evidence_metric
from advisor.recommendation.models import Gap, Rationale, Rejection, SwitchCondition
from advisor.recommendation.policy import PADDING_WASTE_MAX, RECOMPILES_PER_100_MAX
from advisor.recommendation.rules.tiers import tier3_entry
from advisor.recommendation.selection import pick, serves
from advisor.recommendation.switches import switch
from probes.dynamic.report import (
    BUCKETED_COMPILE_PADDING_WASTE_PCT,
    BUCKETED_COMPILE_TOTAL_S,
    DYNAMIC_COMPILE_RECOMPILES_PER_100,
    DYNAMIC_COMPILE_TOTAL_S,
    STATIC_COMPILE_LIMIT_HIT,
    STATIC_COMPILE_RECOMPILES_PER_100,
)


def static_recompiles_too_often(facts: EvidenceFacts) -> Rationale | None:
    """compile.static recompiling more than 4 per 100 requests, or hitting dynamo's recompile limit."""
    rate, limit = facts.usable(STATIC_COMPILE_RECOMPILES_PER_100.name), facts.usable(STATIC_COMPILE_LIMIT_HIT.name)
    if limit is not None and limit.value >= 1.0:
        return fact_line(f"{limit.figure}: static compilation cannot follow the shape mix", limit)
    if rate is not None and rate.value > RECOMPILES_PER_100_MAX:
        text = f"{rate.figure} (> {RECOMPILES_PER_100_MAX:g}): static compilation recompiles on new shapes"
        return fact_line(text, rate)
    return None


def compile_mode(facts: EvidenceFacts) -> tuple[str, list[Rationale]]:
    """torch.compile mode: static when it rarely recompiles; else the faster of dynamic and bucketed on the target."""
    too_often = static_recompiles_too_often(facts)
    rate = facts.usable(STATIC_COMPILE_RECOMPILES_PER_100.name)
    if too_often is None and rate is not None:
        return "static", [fact_line(f"{rate.figure}: few distinct shapes, static compilation suffices", rate)]
    lines = [too_often] if too_often is not None else []
    dynamic, bucketed = facts.usable(DYNAMIC_COMPILE_TOTAL_S.name), facts.usable(BUCKETED_COMPILE_TOTAL_S.name)
    waste = facts.usable(BUCKETED_COMPILE_PADDING_WASTE_PCT.name)
    if dynamic is not None and bucketed is not None:
        faster = "bucketed" if bucketed.value < dynamic.value else "dynamic"
        comparison = facts_line(f"{bucketed.figure} against {dynamic.figure}: {faster} wins", bucketed, dynamic)
        return faster, lines + [comparison]
    if waste is not None and waste.value > PADDING_WASTE_MAX:
        return "dynamic", lines + [fact_line(f"{waste.figure}: padding to buckets wastes too much", waste)]
    return "dynamic", lines


# The switches that watch the compile mode the rule chose: moot where a stack's runner takes the shapes itself.
COMPILE_MODE_SWITCHES = ("static-compile-recompiles", "bucketing-padding-waste", "dynamic-compile-recompiles")


def mode_switches(mode: str, calls: str = "requests") -> list[SwitchCondition]:
    """The measurement that would change the compile mode, counted per 100 `calls` (requests served, or a training
    job's steps: review 218 p06 read "per 100 requests" in a fine-tuning record)."""
    limit = f"{RECOMPILES_PER_100_MAX:g}"
    if mode == "static":
        description = f"dynamic-shape recompilations > {limit} per 100 {calls}: use dynamic compile or bucketing"
        metric = evidence_metric(STATIC_COMPILE_RECOMPILES_PER_100)
        return [
            switch(
                "static-compile-recompiles", description, metric, ">", RECOMPILES_PER_100_MAX, concern="dynamic-shapes"
            )
        ]
    if mode == "bucketed":
        description = f"bucket padding wastes > {PADDING_WASTE_MAX:g}% of the work: use dynamic compile"
        metric = evidence_metric(BUCKETED_COMPILE_PADDING_WASTE_PCT)
        return [
            switch("bucketing-padding-waste", description, metric, ">", PADDING_WASTE_MAX, concern="dynamic-shapes")
        ]
    description = f"dynamic compile still recompiles > {limit} per 100 {calls}: bucket the shapes"
    metric = evidence_metric(DYNAMIC_COMPILE_RECOMPILES_PER_100)
    return [
        switch("dynamic-compile-recompiles", description, metric, ">", RECOMPILES_PER_100_MAX, concern="dynamic-shapes")
    ]


def platform_advice(context: RuleContext) -> Rationale:
    """What the platform's data says about dynamic shapes on its stack (its note, else its value)."""
    platform = context.platform
    claim = platform.dynamic_shapes
    text = f"dynamic shapes on {platform.name}: {claim.note or claim.value}"
    return line(text, cite_platform(platform, "dynamic_shapes"), cite_profile(context.profile, "hardware"))


def static_shape_buckets(context: RuleContext) -> tuple[Gap, tuple[Rejection, ...]]:
    """A platform whose stack does not run dynamic shapes natively: pad to fixed shape buckets; every
    dynamic-shape path the knowledge base lists there is rejected."""
    advice = platform_advice(context)
    padding = line(
        "pad inputs to a fixed set of static shapes (buckets); no dynamic-shape path is chosen",
        cite_profile(context.profile, "needs.dynamic_shapes"),
    )
    rejected = []
    for candidate in context.knowledge.candidates:
        if serves(candidate, context.profile.hardware, "dynamic-shapes"):
            why = line(f"a dynamic-shape path on {context.platform.name}: {advice.text}", *advice.cites)
            rejected.append(rejection(candidate, "dynamic-shapes", why))
    return Gap(concern="dynamic-shapes", rationale=(padding, advice)), tuple(rejected)


def not_needed(context: RuleContext) -> ConcernDecision:
    """Static shapes: nothing to decide. A profile that comes to need dynamic shapes is a new profile, not a condition
    the record watches (review 62: the switch decided nothing)."""
    profile = context.profile
    text = "shapes are static"
    # not in an app, where the model runs one request at a time with no serving engine (review 226 p12: WhisperKit)
    if profile.llm and (profile.serves or profile.training == "rl") and not profile.needs.in_app:
        # an LLM's prompts and batches always vary: the serving engine (or the RL loop's rollout engine) batches them
        # itself, and on a compiling backend its shape buckets are part of the deployment row (review 205 p07, p11)
        text = (
            "no dynamic-shape path beyond the engine's own is asked: prompts and batches of varying length are the "
            "LLM serving engine's to batch (continuous batching; on a compiling backend, the shape buckets its "
            "deployment settings name)"
        )
    reason = line(text, cite_profile(profile, "needs.dynamic_shapes"))
    return skipped_decision("dynamic-shapes", reason)


def runs_models(option: str, context: RuleContext) -> bool:
    """The option serves models itself (an engine or runtime), rather than a compiler or library beneath one."""
    return context.knowledge.layer_of(option) in SERVING_LAYERS


def decide_dynamic_shapes(context: RuleContext) -> ConcernDecision:
    """Tier 1 dynamic-shape path and its mode; static buckets where the platform has no native path."""
    profile = context.profile
    if not profile.needs.dynamic_shapes:
        return not_needed(context)
    native = context.platform.dynamic_shapes.value
    if native == "no":
        gap, rejected = static_shape_buckets(context)
        return ConcernDecision(concern="dynamic-shapes", tier1=gap, tier3=gap, rejections=rejected)
    preference = context.official("dynamic-shapes")
    runtime, framework = context.stack.runtime, context.stack.training_framework
    if runtime is not None and profile.serves and not profile.trains:
        # The runtime that serves the model must carry its shapes: it goes first, the rest only if it cannot.
        preference = (runtime, *[option for option in preference if option != runtime])
    elif framework is not None and profile.trains and framework in context.knowledge.policy.dynamic_shape_modes:
        # A training framework with its own way with variable lengths (Megatron's sequence packing) carries them.
        preference = (framework, *[option for option in preference if option != framework])
    if profile.serves and profile.serving_task in CLAIMED_TASKS_ONLY:  # Whisper: an engine no stack here serves it on
        preference = tuple(option for option in preference if not runs_models(option, context) or option == runtime)
    chosen = pick(context, "dynamic-shapes", preference)
    settings: dict[str, str] = {}
    lines: list[Rationale] = [platform_advice(context)] if native == "partial" else []
    switches: list[SwitchCondition] = []
    if chosen.chosen is not None:
        mode = context.knowledge.policy.dynamic_shape_modes.get(chosen.chosen.id)
        if mode is None:
            mode, measured = compile_mode(context.facts)
            lines += measured
            switches = mode_switches(mode, "requests" if context.profile.serves else "steps")
        settings = {"mode": mode}
        if chosen.chosen.dynamic_shapes.note:
            lines.append(line(chosen.chosen.dynamic_shapes.note, cite_claim(chosen.chosen, "dynamic_shapes")))
    reason = f"no dynamic-shape path for {profile.hardware} in the knowledge base: pad to fixed shape buckets"
    tier1 = entry_from(chosen, "dynamic-shapes", context, gap_reason=reason, settings=settings, lines=lines)
    trains_only = profile.trains and not profile.serves
    if chosen.chosen is None and (trains_only or (profile.serves and runtime is None)):  # the framework runs it
        eager = (
            f"no training path for dynamic shapes on {profile.hardware} in the knowledge base: a framework running "
            "eagerly takes each batch's lengths as they come, at the cost of padding; pack sequences or bucket them "
            "by length, and keep the lengths to a few buckets if the training step is compiled"
            if trains_only
            else f"no dynamic-shape path for {profile.hardware} in the knowledge base, and no runtime: served from the "
            "framework in eager mode, each request's shapes run as they come; batch requests of similar length to "
            "limit padding, and keep to a few lengths if the model is compiled"
        )
        tier1 = Gap(concern="dynamic-shapes", rationale=(line(eager, cite_profile(profile, "needs.dynamic_shapes")),))
    return ConcernDecision(
        concern="dynamic-shapes",
        tier1=tier1,
        tier3=tier3_entry(context, "dynamic-shapes"),
        rejections=rejections_from(chosen, "dynamic-shapes"),
        switch_conditions=tuple(switches),
    )
