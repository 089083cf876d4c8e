"""recommend(profile, evidence_list) -> Recommendation: pure, deterministic, no I/O beyond the built-in knowledge base.

The stack plan comes first (stack.py: the runtime or serving engine, the training framework), then
each concern is decided by its own rule module against it; this module composes the tiers, the
rejections a team would ask about, the switch conditions, the expected impact and the confidence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import get_args

from advisor.knowledge.models import CONCERNS, Concern, KnowledgeBase
from advisor.profile import Profile
from advisor.recommendation.adapt import adapt_tier1, page_devices, pluggable
from advisor.recommendation.capacity import capacity_lines, licence_line, short_of_memory, with_capacity
from advisor.recommendation.citations import format_support, other_families_terms
from advisor.recommendation.context import ConcernDecision, RuleContext
from advisor.recommendation.facts import evidence_facts
from advisor.recommendation.impact import with_impact
from advisor.recommendation.models import (
    Choice,
    Rationale,
    Recommendation,
    Rejection,
    StackOption,
    SwitchCondition,
    Tier,
    TierNumber,
)
from advisor.recommendation.planned_type import planned_model_type, restated_type
from advisor.recommendation.policy import KL_IN_REWARD, NO_KL_LOSS, RELIED_ON_CAPABILITIES, SWITCHING_CAPABILITIES
from advisor.recommendation.reference import (
    MODEL_FREE_FIGURES,
    cited_in_tier1,
    for_attention_kind,
    reference_figures,
    unlike_reference_layers,
    with_reference,
)
from advisor.recommendation.rules.attention import decide_attention
from advisor.recommendation.rules.collectives import decide_collectives
from advisor.recommendation.rules.confidence import overall_confidence, with_task_undocumented
from advisor.recommendation.rules.convolution import decide_convolution
from advisor.recommendation.rules.deployment import decide_deployment
from advisor.recommendation.rules.dynamic_shapes import COMPILE_MODE_SWITCHES, decide_dynamic_shapes
from advisor.recommendation.rules.fusion import decide_fusion
from advisor.recommendation.rules.gemm import decide_gemm
from advisor.recommendation.rules.quantization import decide_quantization
from advisor.recommendation.rules.tiers import TASK_WORDS
from advisor.recommendation.rules.training_framework import decide_training_framework
from advisor.recommendation.scope import foreign_terms, scoped_rejections, scoped_switches, scoped_tier
from advisor.recommendation.served_format import restated, served_format
from advisor.recommendation.stack import plan_stack, sharded_serving_stack, task_engine_only
from advisor.recommendation.stack_choice import (
    RUNNER_CONCERNS,
    SEE_SWITCHES,
    StackChoice,
    choose_stacks,
    for_other_models,
    node_size,
    options_considered,
    runner_of,
    stacks_in,
    workloads,
)
from advisor.recommendation.stack_switches import (
    async_rollout_switch,
    context_cap_gate,
    engine_alternative_switch,
    installed_flash_attention_switch,
    kv_cache_switch,
    long_context_memory_switch,
    model_list_rival_switch,
    open_route_switch,
    replica_switch,
    requantized_rival_switch,
    rollout_parity_switch,
    shared_checkpoint_switch,
    smaller_model_switch,
    stack_switches,
    successor_switch,
    unvalidated_device_switch,
    verdict,
)
from advisor.recommendation.switches import switch
from advisor.recommendation.tier3 import adapt_tier3
from advisor.recommendation.tiers import build_tier
from probes.models import Evidence

# In the knowledge base's concern order: every list in the output follows it.
DECIDERS: tuple[Callable[[RuleContext], ConcernDecision], ...] = (
    decide_gemm,
    decide_convolution,
    decide_attention,
    decide_fusion,
    decide_quantization,
    decide_dynamic_shapes,
    decide_collectives,
    decide_training_framework,
    decide_deployment,
)
MAX_REJECTED = 6
# Layers whose own concern is what they run, whatever their concerns list says (a training framework's is collectives).
LAYER_CONCERNS: dict[str, Concern] = {
    "training-framework": "training-framework",
    "serving-engine": "deployment",
    "runtime": "deployment",
}
MAX_PROFILE_SWITCHES = 2
MAX_KNOWLEDGE_SWITCHES = 3
# Profile-edit switches, most telling first: only the first MAX_PROFILE_SWITCHES are kept.
PROFILE_SWITCH_ORDER = ("long-context-needed",)
_UNSUPPORTED = ("no", "unknown", "partial")


def recommend(
    profile: Profile, evidence_list: Sequence[Evidence], knowledge: KnowledgeBase | None = None
) -> Recommendation:
    """The tiered recommendation for a profile from its evidence (measured on the target or elsewhere)."""
    if knowledge is None:
        from advisor.knowledge.loader import load_knowledge_base

        knowledge = load_knowledge_base()
    asked = profile
    typed, vision = planned_model_type(asked)  # a ViT given as a dense transformer: planned on the vision stacks
    profile, served_as = served_format(typed, knowledge)  # fp8 asked on a device without FP8: planned in int8
    facts = evidence_facts(evidence_list, profile.hardware)
    stack_choice = choose_stacks(profile, knowledge)
    context = plan_stack(RuleContext(profile=profile, knowledge=knowledge, facts=facts), stack_choice)
    decisions = [decide(context) for decide in DECIDERS]
    numbers: tuple[TierNumber, ...] = (1, 2, 3)
    tiers = [build_tier(context, number, decisions) for number in numbers]
    skipped = tuple(decision.skipped for decision in decisions if decision.skipped is not None)
    ruled_out = measured_out(decisions)
    tiers[0], skipped = adapt_tier1(tiers[0], stack_choice, context, skipped, ruled_out)
    tiers[2] = adapt_tier3(tiers[2], context, ruled_out, tiers[0], stack_choice)
    tiers = [tier.model_copy(update={"choices": without_repeated_risks(tier.choices)}) for tier in tiers]
    tier1 = tiers[0].model_copy(update={"choices": tuple(with_impact(choice, context) for choice in tiers[0].choices)})
    tiers[0] = tier1
    confidence, notes = overall_confidence(facts, tier1.choices, tier1.gaps, knowledge, profile, stack_choice)
    device = stack_choice.device.id if stack_choice.device is not None else None
    figures, reference_note = reference_figures(profile, device, tier1)
    figures = for_attention_kind(figures, stack_choice.stacks)
    unlike = unlike_reference_layers(profile, stack_choice.stacks)
    confidence, notes = with_reference(confidence, notes, figures, facts.timed_on_target, unlike)
    short = short_of_memory(profile, stack_choice.device, stack_choice.served_precision)
    confidence, notes = with_capacity(confidence, notes, short)
    served_by = next((c.option for c in tier1.choices if c.concern == "deployment"), None)
    untested = knowledge.get(served_by).name if task_engine_only(context, served_by) and served_by else None
    confidence, notes = with_task_undocumented(
        confidence, notes, untested, TASK_WORDS.get(profile.serving_task, ""), profile.hardware
    )
    # Figures timed on dense GQA layers are not quoted as reasons for a MoE or MLA model's choices; all-reduce is.
    quoted = figures if unlike is None else tuple(f for f in figures if f.name in MODEL_FREE_FIGURES)
    tiers[0] = tier1 = cited_in_tier1(tier1, quoted, device)
    shipped = shipped_parts(stack_choice, knowledge)
    rejected = merge_rejections(decisions, tiers, context, shipped)
    stack_level = stack_switches(stack_choice, profile, knowledge.platform(profile.hardware))
    if not any(c.concern == "quantization" for c in tier1.choices):  # nothing quantized: no quantized model to gate
        stack_level = tuple(s for s in stack_level if not s.id.endswith("-accuracy-drop"))
    quantized = profile.needs.quantization if profile.needs.quantized else None
    runners = {  # a rival engine must run the asked format as documented: OpenVINO only simulates INT8 on Arm
        c.id
        for c in knowledge.candidates
        if c.layer.value in ("serving-engine", "runtime")
        and c.serves_task(profile.serving_task)
        and (quantized is None or format_support(c, quantized, knowledge) == "yes")
    }
    runners -= runners_for_other_models(stack_choice, knowledge)
    tier3 = next((t for t in tiers if t.tier == 3 and t.primary), None)
    leading = next((c.option for c in tier3.choices if c.concern == "deployment"), None) if tier3 else None
    engine_switch = engine_alternative_switch(tier1, profile, stack_level, runners, leading)
    stack_level += (engine_switch,) if engine_switch is not None else ()
    shared = shared_checkpoint_switch(tiers, profile)
    stack_level += (shared,) if shared is not None else ()
    stack_level += tuple(
        found
        for found in (
            replica_switch(stack_choice, profile),
            smaller_model_switch(stack_choice, profile),
            successor_switch(stack_choice, profile, knowledge),
            model_list_rival_switch(stack_choice, profile),
            open_route_switch(stack_choice, profile),
            async_rollout_switch(stack_choice, profile, knowledge),
            rollout_parity_switch(stack_choice, profile, knowledge),
            long_context_memory_switch(stack_choice, profile),
            requantized_rival_switch(stack_choice, profile),
            kv_cache_switch(tier1, profile),
            installed_flash_attention_switch(stack_choice, tier1, profile),
            unvalidated_device_switch(stack_choice, profile),
            context_cap_gate(stack_choice, profile),
        )
        if found is not None
    )
    from_rules = collect_switches(context, decisions, tiers, rejected)
    if any(s.id == "int8-slower-on-target" for s in from_rules):  # the probe's INT8 timing already gates the speed
        stack_level = tuple(s for s in stack_level if s.id != "int8-no-speedup")
    switches = capped_profile_edits(stack_level + from_rules)
    foreign = foreign_terms(profile, knowledge)
    if foreign is not None:
        rejected, switches = scoped_rejections(rejected, foreign), scoped_switches(switches, foreign)
    target_only = other_families_terms((profile.hardware,), knowledge)  # tiers 1 and 2 run on the target alone
    tiers = [
        scoped_tier(tier, scope) if (scope := target_only if tier.tier < 3 else foreign) is not None else tier
        for tier in tiers
    ]
    tiers = [without_self_alternatives(tier) for tier in tiers]
    tiers = [engine_pluggable(tier, context) if tier.tier == 1 else tier for tier in tiers]
    answer = Recommendation(
        profile=asked,
        tiers=tuple(tiers),
        rejected=rejected,
        switch_conditions=switches,
        skipped_concerns=skipped,
        confidence=confidence,
        confidence_notes=notes,
        evidence_used=facts.timed_on_target,
        proxy_evidence=facts.proxy,
        evidence_sources=facts.sources,
        device=device,
        device_assumed=stack_choice.device_assumed,
        stacks=tuple(stacks_in(stack_choice, profile, knowledge.platform(profile.hardware).devices, knowledge)),
        stacks_considered=raced_as_said(options_considered(stack_choice, profile, workloads(profile), short), switches),
        reference=figures,
        reference_note=reference_note,
        verdict=verdict(stack_choice, tier1, profile, tiers, short, knowledge),
        capacity=tuple(note for note in (vision, served_as, licence_line(profile)) if note is not None)
        + capacity_lines(
            profile,
            stack_choice.device,
            node_size(stack_choice.device),
            runs_mla(stack_choice),
            stack_choice.served_precision,
            on_cpu=knowledge.platform(profile.hardware).kind == "cpu",
            sharded=sharded_serving_stack(stack_choice),
            page_devices=page_devices(stack_choice.for_workload("inference"), stack_choice, profile),
            reference=loads_reference_policy(stack_choice, profile),
        ),
        confidence_basis=notes[0] if notes else None,
    )
    return restated_type(restated(answer, typed, profile), asked, typed)


def raced_as_said(options: Sequence[StackOption], switches: Sequence[SwitchCondition]) -> tuple[StackOption, ...]:
    """The considered stacks, where a row that sends the reader to a throughput race among the switch conditions has
    one (a family whose engines share one candidate races one of them: review 216's Iluvatar ixRT row pointed to no
    switch); otherwise it says the run is the team's to make."""
    kept = []
    for option in options:
        named = re.compile(rf"(?<![a-z0-9-]){re.escape(option.stack)}(?![a-z0-9-])")  # the whole id, not a prefix
        watching = next((s for s in switches if named.search(s.metric)), None)
        if SEE_SWITCHES in option.reason and watching is None:
            reason = option.reason.replace(
                SEE_SWITCHES, "(a run the team makes the same way as the switch conditions')"
            )
            option = option.model_copy(update={"reason": reason})
        elif not option.chosen and watching is not None and SEE_SWITCHES not in option.reason:
            # a row turned down on its format or model list whose way back a switch watches (review 260 p10: WhisperKit
            # "none in int8", while a switch races its int4 model on the target)
            option = option.model_copy(update={"reason": f"{option.reason}; switch condition {watching.id} watches it"})
        kept.append(option)
    return tuple(kept)


def loads_reference_policy(stack_choice: StackChoice, profile: Profile) -> bool:
    """Whether an RL job's chosen recipe loads a frozen reference policy: not where its trainer's settings (the project's
    own example for the model, where it has one) turn the KL term off (review 212 p04: a reference copy counted for
    verl's Qwen3-30B-A3B script, which sets use_kl_loss=False)."""
    trained = stack_choice.for_workload("training")
    runner = trained.stack.runner if trained is not None else None
    if profile.training != "rl" or runner is None:
        return True
    setting = runner.for_model(profile.model_name).setting or ""
    return not NO_KL_LOSS.search(setting) or bool(KL_IN_REWARD.search(setting))


def runners_for_other_models(stack_choice: StackChoice, knowledge: KnowledgeBase) -> set[str]:
    """Runners whose every considered stack here is written for other models or devices (mflux for an SDXL profile): no
    throughput race against them is a switch condition, as they do not run this model."""
    known = set(knowledge.ids())
    fits: dict[str, bool] = {}
    for judged in stack_choice.considered:
        runner = runner_of(judged.stack, judged.workload, known)
        if runner is None or runner.candidate is None:
            continue
        usable = not for_other_models(judged)
        fits[runner.candidate] = fits.get(runner.candidate, False) or usable
    return {runner for runner, usable in fits.items() if not usable}


def runs_mla(stack_choice: StackChoice) -> bool:
    """The model served runs multi-head latent attention (DeepSeek's MLA): the chosen serving stack is a recipe written
    for named models whose attention is MLA, and the profile names one of them or none (then one is assumed). An engine
    that merely offers an MLA backend beside others (AITER's FA and MLA) says nothing of a Llama or Qwen model."""
    serving = stack_choice.for_workload("inference")
    if serving is None or not serving.written_for_this_model:
        return False
    attention = serving.stack.component("attention")
    return attention is not None and "MLA" in attention.name


def measured_out(decisions: Sequence[ConcernDecision]) -> frozenset[tuple[str, str]]:
    """(option, concern) pairs a rule ruled out on evidence measured on the target: no stack part overrides them."""
    return frozenset(
        (rejection.option, concern)
        for decision in decisions
        for rejection in decision.rejections
        for concern in rejection.concerns
        if any(
            cite.kind == "evidence" and "proxy" not in (cite.figure or "")
            for reason in rejection.reasons
            for cite in reason.cites
        )
    )


def capped_profile_edits(switches: Sequence[SwitchCondition]) -> tuple[SwitchCondition, ...]:
    """Measurable conditions all, profile edits only the first MAX_PROFILE_SWITCHES (a new device generation first)."""
    edits = [c for c in switches if c.metric.startswith("profile.")][:MAX_PROFILE_SWITCHES]
    return tuple(c for c in switches if not c.metric.startswith("profile.") or c in edits)


def engine_pluggable(tier: Tier, context: RuleContext) -> Tier:
    """A concern that tier 1's engine or framework does itself lists only the alternatives it can run in its place
    (pluggable): not another engine's kernels or quantizers it does not load."""
    engines = {c.option for c in tier.choices if c.concern in RUNNER_CONCERNS}
    choices = tuple(
        c.model_copy(update={"alternatives": pluggable(c.concern, c.option, c.alternatives, context)})
        if c.option in engines and c.concern not in RUNNER_CONCERNS and c.alternatives
        else c
        for c in tier.choices
    )
    return tier if choices == tier.choices else tier.model_copy(update={"choices": choices})


def without_self_alternatives(tier: Tier) -> Tier:
    """No choice lists its own option among its alternatives (a choice re-pointed to the engine that quantizes, review
    124's record: "`tensorrt-llm` over `tensorrt-llm`, ...")."""
    choices = tuple(
        c.model_copy(update={"alternatives": tuple(a for a in c.alternatives if a != c.option)})
        if c.option in c.alternatives
        else c
        for c in tier.choices
    )
    return tier if choices == tier.choices else tier.model_copy(update={"choices": choices})


def without_repeated_risks(choices: Sequence[Choice]) -> tuple[Choice, ...]:
    """A risk to watch is said once per tier, at the first choice it concerns."""
    said: set[str] = set()
    kept = []
    for choice in choices:
        lines = [r for r in choice.rationale if not (r.text.startswith("watch: ") and r.text in said)]
        said |= {r.text for r in choice.rationale if r.text.startswith("watch: ")}
        kept.append(
            choice if len(lines) == len(choice.rationale) else choice.model_copy(update={"rationale": tuple(lines)})
        )
    return tuple(kept)


def _chosen_pairs(tiers: Sequence[Tier]) -> set[tuple[str, str]]:
    return {(choice.option, choice.concern) for tier in tiers for choice in tier.choices}


def own_concern(option: str, context: RuleContext) -> Concern | None:
    """The concern an option is first of all for (FlashInfer: attention), or None when the knowledge base lacks it."""
    if option not in context.knowledge.ids():
        return None
    candidate = context.knowledge.get(option)
    return LAYER_CONCERNS.get(candidate.layer.value, candidate.concerns.value[0])


def said_for(
    reason: Rationale, option: str, concern: Concern, context: RuleContext, skipped: Collection[str]
) -> Concern | None:
    """The concern a rejection reason is shown under, or None for a reason a reader would not ask about: that the
    knowledge base does not list the option here. That the option does not run the workload is said only under its
    own concern (FlashInfer for attention, not for GEMM; no training framework as a serving collective), where the
    profile needs that concern."""
    if reason.text.startswith("the knowledge base does not list it"):
        return None
    if not reason.text.startswith("does not run "):
        return concern
    own = own_concern(option, context)
    if own == concern:
        return concern
    return own if own is not None and own not in skipped else None


def skill_reason(reason: Rationale) -> bool:
    """A rejection reason resting on the team's skill (the candidate's `skill` claim against `team_skill`)."""
    return any(cite.ref.endswith(".skill") or cite.ref.endswith("team_skill") for cite in reason.cites)


def shipped_parts(stack_choice: StackChoice, knowledge: KnowledgeBase) -> frozenset[str]:
    """The candidates the chosen stacks ship: their components' own, those a component's name or setting names as
    the library it runs (TensorRT-LLM's MoE backend 'CUTLASS'; review 121 p01 saw CUTLASS rejected as kernel work), and
    those whose kernels a shipped candidate carries inside (aiter's Composable Kernel; review 222 p03 saw CK rejected
    on skill beside a tier 1 that runs AITER)."""
    parts = [component for judged in stack_choice.chosen for component in judged.stack.components]
    named = " ".join(f"{component.name} {component.setting or ''}" for component in parts)
    mentioned = {
        candidate
        for candidate in knowledge.ids()
        if re.search(rf"(?<![\w-]){re.escape(candidate)}(?![\w-])", named, re.IGNORECASE)
    }
    shipped = {component.candidate for component in parts if component.candidate is not None} | mentioned
    inside = {
        inner
        for outer in shipped
        if outer in knowledge.ids() and (carried := knowledge.get(outer).ships_kernels_of) is not None
        for inner in carried.value
    }
    return frozenset(shipped | inside)


def merge_rejections(
    decisions: Sequence[ConcernDecision],
    tiers: Sequence[Tier],
    context: RuleContext,
    shipped: frozenset[str] = frozenset(),
) -> tuple[Rejection, ...]:
    """The alternatives a team would ask about, at most MAX_REJECTED, each with its specific reasons.

    An option any tier chooses is not rejected (for no concern: the record lists tier choices and rejections as
    flat lists of options, and a review diffs them; a choice beyond the team's skill says so in its tier); generic
    reasons are dropped; the platform's own official options come first, then the others, each group by id. A part
    the chosen stacks ship (`shipped`: KleidiAI inside llama.cpp's Arm build) is used, not written, so it is not
    rejected for the skill its own kernels would take to write (the issue's defect 3).
    """
    chosen_options = {option for option, _ in _chosen_pairs(tiers)}
    skipped = {decision.concern for decision in decisions if decision.skipped is not None}
    per_option: dict[str, dict[str, tuple[Rationale, list[Concern]]]] = {}
    for decision in decisions:
        for rejection in decision.rejections:
            for listed in rejection.concerns:
                for reason in rejection.reasons:
                    concern = said_for(reason, rejection.option, listed, context, skipped)
                    if concern is None or rejection.option in chosen_options:
                        continue
                    if rejection.option in shipped and skill_reason(reason):
                        continue
                    entry = per_option.setdefault(rejection.option, {}).setdefault(reason.text, (reason, []))
                    entry[1].append(concern)
    official = {option for concern in get_args(Concern) for option in context.official(concern)}
    ranked = sorted(per_option, key=lambda option: (option not in official, option))[:MAX_REJECTED]
    merged = []
    for option in sorted(ranked):
        reasons = per_option[option]
        concerns = sorted({c for _, named in reasons.values() for c in named}, key=CONCERNS.index)
        texts = []
        for reason, named in reasons.values():
            scope = sorted(set(named), key=CONCERNS.index)
            prefix = "" if scope == concerns else f"for {', '.join(scope)}: "
            texts.append(Rationale(text=prefix + reason.text, cites=reason.cites))
        merged.append(Rejection(option=option, concerns=tuple(concerns), reasons=tuple(texts)))
    return tuple(merged)


def knowledge_switches(context: RuleContext, tier1: Tier, rejected: Sequence[Rejection]) -> list[SwitchCondition]:
    """Claims whose change would change the answer: a capability a rejected option lacks becoming 'yes', and an
    unknown capability a tier-1 choice relies on turning out 'no'."""
    switches: list[SwitchCondition] = []
    for rejection in rejected:
        for reason in rejection.reasons:
            for cite in reason.cites:
                option, _, attribute = cite.ref.partition(".")
                if cite.kind != "knowledge" or option != rejection.option or cite.figure not in _UNSUPPORTED:
                    continue
                if attribute not in SWITCHING_CAPABILITIES:
                    continue
                concerns = ", ".join(rejection.concerns)
                description = f"{cite.ref} becomes yes: reconsider {option} for {concerns}"
                switches.append(
                    switch(
                        f"kb-{option}-{attribute}",
                        description,
                        f"knowledge.{cite.ref}",
                        "==",
                        "yes",
                        concern=rejection.concerns[0],
                    )
                )
    for choice in tier1.choices:
        if choice.part_of is not None:
            continue
        candidate = context.knowledge.get(choice.option)
        for attribute in RELIED_ON_CAPABILITIES:
            if getattr(candidate, attribute).value == "unknown" and _relied_on(context.profile, choice, attribute):
                description = f"{choice.option}.{attribute} turns out no: choose another {choice.concern} option"
                switches.append(
                    switch(
                        f"kb-{choice.option}-{attribute}-no",
                        description,
                        f"knowledge.{choice.option}.{attribute}",
                        "==",
                        "no",
                        concern=choice.concern,
                    )
                )
    return switches[:MAX_KNOWLEDGE_SWITCHES]


def _relied_on(profile: Profile, choice: Choice, attribute: str) -> bool:
    if attribute in ("fp8", "int8"):
        return profile.needs.quantization == attribute and choice.concern in ("quantization", "deployment")
    if attribute == "dynamic_shapes":
        return profile.needs.dynamic_shapes and choice.concern in ("dynamic-shapes", "deployment")
    return choice.concern == "collectives"


def replaced_by_stack(condition: SwitchCondition, decision: ConcernDecision, final: Mapping[str, str]) -> bool:
    """A rule's switch about its own tier-1 option ('flash-attention-memory-superlinear') where the chosen stack put
    another option in that concern: the condition watches something the record does not choose."""
    entry = decision.tier1
    if not isinstance(entry, Choice) or condition.concern != decision.concern:
        return False
    about_it = condition.id.startswith(f"{entry.option}-") or condition.id in COMPILE_MODE_SWITCHES  # its modes
    return about_it and final.get(decision.concern) != entry.option


def replaced_in_tier3(condition: SwitchCondition, decision: ConcernDecision, final3: Mapping[str, str]) -> bool:
    """A rule's switch about its tier-3 option ('keep the vendor GEMM in tier 3' beside Triton) where tier 3 was
    adapted to another option (ONNX Runtime's own kernels): it watches a choice the record does not make."""
    entry = decision.tier3
    if not isinstance(entry, Choice) or condition.concern != decision.concern or "tier 3" not in condition.description:
        return False
    return final3.get(decision.concern) != entry.option


def collect_switches(
    context: RuleContext, decisions: Sequence[ConcernDecision], tiers: Sequence[Tier], rejected: Sequence[Rejection]
) -> tuple[SwitchCondition, ...]:
    """Measurable conditions first (evidence on the target, knowledge-base claims), then at most two profile edits."""
    final: dict[str, str] = {choice.concern: choice.option for choice in tiers[0].choices}
    final3: dict[str, str] = {choice.concern: choice.option for choice in tiers[2].choices} if len(tiers) > 2 else {}
    found: list[SwitchCondition | None] = [
        s
        for decision in decisions
        for s in decision.switch_conditions
        if not replaced_by_stack(s, decision, final) and not replaced_in_tier3(s, decision, final3)
    ]
    found += knowledge_switches(context, tiers[0], rejected)
    # a team's skill is the profile's to state, not a condition to measure: tier 2's note says which skill opens it
    profile_edits: list[SwitchCondition | None] = []
    unique: dict[str, SwitchCondition] = {}
    for condition in found:
        if condition is not None and not condition.metric.startswith("profile."):
            unique.setdefault(condition.id, condition)
    edits = [c for c in [*profile_edits, *found] if c is not None and c.metric.startswith("profile.")]
    edits.sort(
        key=lambda c: PROFILE_SWITCH_ORDER.index(c.id) if c.id in PROFILE_SWITCH_ORDER else len(PROFILE_SWITCH_ORDER)
    )
    for condition in edits:
        if sum(1 for c in unique.values() if c.metric.startswith("profile.")) >= MAX_PROFILE_SWITCHES:
            break
        unique.setdefault(condition.id, condition)
    return tuple(unique.values())
