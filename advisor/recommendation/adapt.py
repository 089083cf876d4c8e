"""Tier 1 from the chosen stack: each concern a stack component decides takes that component, as the stack sets it.

The per-concern rules still run (they read the evidence, give the reasons, the rejections and the switch
conditions), but where the chosen stack names a part for a concern, tier 1 keeps the stack's part so the
pieces stay the way the vendor validated them together. A part without its own knowledge-base candidate (the
engine's own attention kernels) is chosen as the runner that ships it. A graph runtime that serves the model
brings its own kernels for the concerns the stack does not name.
"""

from __future__ import annotations

from collections.abc import Sequence

from advisor.knowledge.platforms import Device
from advisor.knowledge.stacks import RUNNER_ROLES, Component, Stack
from advisor.profile import Profile
from advisor.recommendation.citations import cite_profile, line
from advisor.recommendation.context import RuleContext
from advisor.recommendation.models import Choice, Citation, Rationale, SkippedConcern, Tier
from advisor.recommendation.policy import ROLE_CONCERNS, RUNTIME_KERNEL_CONCERNS, SKILL_ORDER
from advisor.recommendation.stack import LARGE_TRAINING_DEVICES
from advisor.recommendation.stack_choice import Judged, StackChoice

SETTING_ROLES = ("kv-cache", "moe", "parallelism", "kernels", "other")  # shown as settings of the runner's choice
# Parts without a candidate of their own that the runner ships (its attention or GEMM kernels): chosen as the runner.
# A quantizer or collectives library without a candidate is no part of the runner: the rule's choice stays.
RUNNER_KERNEL_ROLES = ("attention", "gemm", "convolution")
MAX_KEPT_REASONS = 3  # the rule's own reasons kept under the stack's, where both choose the same option


def cite_stack(stack: Stack, component: Component | None = None) -> Citation:
    """The stack (or one of its parts) as documented, with the page that documents it."""
    if component is None:
        return Citation(kind="knowledge", ref=f"stacks.{stack.id}", figure=stack.name, source=stack.source)
    return Citation(kind="knowledge", ref=f"stacks.{stack.id}.{component.role}", figure=component.name,
                    source=component.source or stack.source)  # fmt: skip


def runner_of(stack: Stack, workload: str, known: set[str]) -> Component | None:
    """The component with a knowledge-base candidate that runs the model for this workload."""
    wanted = ("training-framework",) if workload == "training" else ("serving-engine", "runtime")
    return next((c for c in stack.components if c.role in wanted and c.candidate in known), None)


def runner_concern(workload: str) -> str:
    return "training-framework" if workload == "training" else "deployment"


def part_settings(component: Component, option: str, context: RuleContext) -> dict[str, str]:
    """How the stack uses a part: its name where the option is another thing (the runner's own kernels), its setting."""
    settings: dict[str, str] = {}
    known = context.knowledge.ids()
    if component.candidate is None or (option in known and context.knowledge.get(option).name not in component.name):
        settings["part"] = component.name
    if component.setting:
        settings["setting"] = component.setting
    return settings


def part_choice(concern: str, option: str, component: Component, judged: Judged, context: RuleContext,
                previous: Choice | None) -> Choice:  # fmt: skip
    """The stack's part as the tier-1 choice: the stack's reason first, the rule's own reasons kept where it agrees."""
    stack = judged.stack
    text = f"{component.name} in {stack.name}, as documented and validated together"
    reasons: list[Rationale] = [line(text, cite_stack(stack, component))]
    settings = part_settings(component, option, context)
    if previous is not None and previous.option == option:  # the rule's reasons (its evidence) and settings lead
        kept = [r for r in previous.rationale if not r.text.startswith("watch: ")][:MAX_KEPT_REASONS]
        reasons = [*kept, *reasons]
        settings = {**settings, **previous.settings}
    fits = True
    if component.role in RUNNER_ROLES and option in context.knowledge.ids():
        skill = context.knowledge.get(option).skill.value
        fits = SKILL_ORDER.index(skill) <= SKILL_ORDER.index(context.profile.team_skill)
    alternatives = tuple(a for a in (previous.alternatives if previous else ()) if a != option)
    return Choice(concern=concern, option=option, settings=settings, rationale=tuple(reasons),  # type: ignore[arg-type]
                  alternatives=alternatives, fits_team=fits)  # fmt: skip


def stack_parts(judged: Judged, context: RuleContext) -> dict[str, tuple[str, Component]]:
    """Concern -> (option, component) for every concern the stack decides for this profile."""
    stack, profile = judged.stack, context.profile
    known = set(context.knowledge.ids())
    runner = runner_of(stack, judged.workload, known)
    parts: dict[str, tuple[str, Component]] = {}
    if runner is not None and runner.candidate is not None and (judged.workload == "inference" or framework_needed(judged, profile)):
        parts[runner_concern(judged.workload)] = (runner.candidate, runner)
    precision_fits = not any(misfit.kind == "precision" for misfit in judged.misfits)
    for component in stack.components:
        concern = ROLE_CONCERNS.get(component.role)
        quantizes = profile.needs.quantized and precision_fits
        if concern is None or concern in parts or (concern == "quantization" and not quantizes):
            continue
        if component.candidate in known:
            parts[concern] = (component.candidate, component)
        elif runner is not None and runner.candidate is not None and component.role in RUNNER_KERNEL_ROLES:
            parts[concern] = (runner.candidate, component)
    return parts


def framework_needed(judged: Judged, profile: Profile) -> bool:
    """A training stack's framework is chosen for a job at a scale the stack is documented for beyond one device
    (large or MoE training), or for a model the platform's general frameworks do not cover (needs_training_framework
    decides that for LLMs; a documented stack decides it for the other model types)."""
    if profile.needs.devices >= LARGE_TRAINING_DEVICES or profile.model_type == "moe":
        return True
    return not profile.llm and profile.needs.devices > 1 and judged.fits


def runtime_kernels(judged: Judged, context: RuleContext, decided: set[str]) -> dict[str, tuple[str, Component]]:
    """For an inference-only graph runtime (not a serving engine): the concerns it carries with its own kernels."""
    known = set(context.knowledge.ids())
    runner = runner_of(judged.stack, "inference", known)
    if runner is None or runner.role != "runtime" or context.profile.trains or runner.candidate is None:
        return {}
    candidate = context.knowledge.get(runner.candidate)
    if candidate.layer.value != "runtime":  # a serving engine or framework named as the runtime: the rules' kernels stay
        return {}
    own = Component(role=runner.role, name=f"{candidate.name}'s own kernels", candidate=runner.candidate)
    return {concern: (runner.candidate, own) for concern in RUNTIME_KERNEL_CONCERNS if concern not in decided}


def runner_settings(judged: Judged) -> dict[str, str]:
    """The stack's parts that belong to no concern (KV cache, MoE kernels, kernel libraries), as runner settings."""
    settings: dict[str, str] = {}
    for component in judged.stack.components:
        if component.role in SETTING_ROLES:
            key = component.role
            settings[key] = f"{settings[key]}; {component.name}" if key in settings else component.name
    return settings


def precision_settings(choice: Choice, profile: Profile, device: Device | None) -> Choice:
    """The GEMM runs the precision the profile asks for (its quantization) where the device runs it natively, not a
    float format chosen apart."""
    if choice.concern != "gemm" or not profile.needs.quantized:
        return choice
    if device is not None and profile.needs.quantization not in device.formats:
        return choice
    if any(cite.kind == "evidence" for reason in choice.rationale for cite in reason.cites):
        return choice  # measured on the target: the evidence sets the dtype within the stack
    why = line(f"{profile.needs.quantization} asked: the GEMMs run in it", cite_profile(profile, "needs.quantization"))
    reasons = choice.rationale if any("asked" in r.text for r in choice.rationale) else (*choice.rationale, why)
    return choice.model_copy(update={"settings": {**choice.settings, "dtype": profile.needs.quantization}, "rationale": reasons})


def adapt_tier1(tier1: Tier, choice: StackChoice, context: RuleContext, skipped: Sequence[SkippedConcern]) -> tuple[Tier, tuple[SkippedConcern, ...]]:
    """Tier 1 with the chosen stacks' parts in place (serving first), and the skipped concerns they now decide."""
    by_concern: dict[str, Choice] = {c.concern: c for c in tier1.choices}
    stacked: dict[str, Choice] = {}
    skipped_concerns = {s.concern for s in skipped}
    for judged in choice.chosen:
        parts = stack_parts(judged, context)
        parts.update({k: v for k, v in runtime_kernels(judged, context, set(parts)).items() if k not in parts})
        for concern, (option, component) in parts.items():
            if concern in stacked:
                continue
            if concern in skipped_concerns and concern not in ("training-framework",):
                continue
            stacked[concern] = part_choice(concern, option, component, judged, context, by_concern.get(concern))
        runner = runner_concern(judged.workload)
        if runner in stacked:
            extra = runner_settings(judged)
            stacked[runner] = stacked[runner].model_copy(update={"settings": {**stacked[runner].settings, **extra}})
    merged = [stacked.get(c.concern, c) for c in tier1.choices]
    merged += [c for concern, c in stacked.items() if concern not in by_concern]
    merged = [precision_settings(c, context.profile, choice.device) for c in merged]
    gaps = tuple(gap for gap in tier1.gaps if gap.concern not in stacked)
    order = [c.concern for c in merged]
    merged.sort(key=lambda c: _concern_index(c.concern, order))
    kept_skipped = tuple(s for s in skipped if s.concern not in stacked)
    fits_team = all(c.fits_team for c in merged)
    return tier1.model_copy(update={"choices": tuple(merged), "gaps": gaps, "fits_team": fits_team}), kept_skipped


def _concern_index(concern: str, order: list[str]) -> int:
    from advisor.knowledge.models import CONCERNS

    return CONCERNS.index(concern) if concern in CONCERNS else len(CONCERNS) + order.index(concern)
