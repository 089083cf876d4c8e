"""Deployment, for inference: a serving engine for an LLM, a graph runtime for a CNN or diffusion model.

The runtime is chosen first (stack.py) because the quantization toolkit, the attention kernel and the
dynamic-shape path must fit it; it must carry what the profile needs (the quantized dtype, dynamic shapes).
"""

from __future__ import annotations

from advisor.recommendation.choices import entry_from, rejections_from
from advisor.recommendation.citations import cite_claim, cite_platform, cite_profile, line
from advisor.recommendation.context import ConcernDecision, RuleContext, skipped_decision
from advisor.recommendation.models import Gap, Rationale
from advisor.recommendation.rules.tiers import TASK_WORDS, tier3_entry
from advisor.recommendation.stack import (
    engines_claiming_the_task,
    runtime_pick,
    runtime_requirements,
    task_engine_only,
)

TASK_MODELS = {"embedding": "an embedding model", "transcription": "a speech model"}


def engine_line(context: RuleContext, option: str) -> Rationale:
    """Why a serving engine (LLM) or a graph runtime (CNN, diffusion) carries the model."""
    candidate = context.knowledge.get(option)
    profile = context.profile
    if context.stack.serving_engine or candidate.layer.value == "serving-engine":
        what = {
            "embedding": "an embedding model in production is served by an engine that batches concurrent inputs",
            "transcription": "a speech model is served by a runtime with a transcription endpoint",
        }.get(
            profile.serving_task,
            "an LLM runs in an engine that manages the KV cache and loads quantized checkpoints (and, on a server, "
            "batches concurrent requests)",
        )
        text = f"{what}; {candidate.name} is the {context.platform.name} engine that carries what this profile needs"
        return line(
            text,
            cite_platform(context.platform, "serving_engines"),
            cite_claim(candidate, "summary"),
            cite_profile(profile, "model_type"),
        )
    text = f"a {profile.model_type} model is served by {candidate.name}, the runtime on {context.platform.name} that carries it"
    return line(
        text,
        cite_platform(context.platform, "official.deployment"),
        cite_claim(candidate, "summary"),
        cite_profile(profile, "model_type"),
    )


def decide_deployment(context: RuleContext) -> ConcernDecision:
    """Tier 1 runtime for inference workloads; skipped for training only."""
    profile = context.profile
    if not profile.serves:
        # RL post-training generates its rollouts in an inference engine the training stack runs itself (review 153 p02:
        # "no deployment runtime" beside verl's vLLM rollouts)
        text = (
            "training only: no separate deployment runtime; the rollouts run in the inference engine the training "
            "stack names (its rollout part)"
            if profile.training == "rl"
            else "training only: no deployment runtime"
        )
        cites = [cite_profile(profile, "workload")] + ([cite_profile(profile, "training")] if profile.training else [])
        skipped = line(text, *cites)
        return skipped_decision("deployment", skipped)
    chosen = runtime_pick(context)
    lines = [engine_line(context, chosen.chosen.id)] if chosen.chosen is not None else []
    if chosen.chosen is not None and task_engine_only(context, chosen.chosen.id):
        lines.append(unvalidated_task_line(context, chosen.chosen.id))
    served = TASK_WORDS.get(profile.serving_task)
    where = f"{served} on {profile.hardware}" if served else profile.hardware
    reason = f"no deployment runtime for {where} in the knowledge base: serve from the framework"
    tier1 = entry_from(chosen, "deployment", context, gap_reason=reason, lines=lines)
    if isinstance(tier1, Gap) and (engines := task_engines_line(context)) is not None:
        tier1 = tier1.model_copy(update={"rationale": (*tier1.rationale, engines)})
    return ConcernDecision(
        concern="deployment",
        tier1=tier1,
        tier3=tier3_entry(context, "deployment", runtime_requirements(profile)),
        rejections=rejections_from(chosen, "deployment"),
    )


def task_engines_line(context: RuleContext) -> Rationale | None:
    """For a speech model on a family where no runtime is documented for one: the family's serving engines whose own
    documentation covers that task in general (their tasks claim), named as what to probe there, since neither page
    says that the pair works on this family."""
    task = context.profile.serving_task
    if task == "generation":
        return None
    engines = [context.knowledge.get(option) for option in engines_claiming_the_task(context)]
    if not engines:
        return None
    names = ", ".join(engine.name for engine in engines)
    text = f"{names} serves language models on {context.platform.name} and documents {TASK_WORDS[task]} in general, but"
    text += f" no page found documents it for {TASK_MODELS[task]} on {context.profile.hardware}: probe it there before"
    cites = [cite_platform(context.platform, "serving_engines"), *(cite_claim(e, "tasks") for e in engines)]
    return line(f"{text} relying on it", *cites)


def unvalidated_task_line(context: RuleContext, option: str) -> Rationale:
    """The caveat of an engine chosen for an embedding model on a family where only its generation serving is
    documented: what to check on the target before the service relies on it."""
    engine = context.knowledge.get(option)
    task = context.profile.serving_task
    text = (
        f"watch: {engine.name} is documented on {context.platform.name} for text generation and documents "
        f"{TASK_WORDS[task]} in general, but no page found runs {TASK_MODELS[task]} with it on "
        f"{context.profile.hardware}: before relying on it, start it there with the model and compare its outputs with "
        "the model's own reference (Sentence Transformers on the CPU) on a sample of inputs; where it fails, serve the "
        "model from the framework (Sentence Transformers or Transformers on the device's PyTorch build) behind your "
        "own endpoint"
    )
    return line(text, cite_platform(context.platform, "serving_engines"), cite_claim(engine, "tasks"))
