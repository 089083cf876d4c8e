"""Assembling the three tiers (method #tiers) from the per-concern decisions, with each tier's notes."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from advisor.knowledge.models import Concern
from advisor.recommendation.citations import cite_claim, cite_platform, cite_profile, cite_stack_claim, line
from advisor.recommendation.context import ConcernDecision, RuleContext, serving_options
from advisor.recommendation.hot_operators import hot_spot_ranking, hotop_shares
from advisor.recommendation.models import Choice, Citation, Gap, Rationale, Tier, TierNumber
from advisor.recommendation.policy import KERNEL_WRITING_SKILL, RUNTIME_KERNEL_LAYERS, SKILL_ORDER
from advisor.recommendation.rules.tiers import outside_runtime_line, runs_outside_runtime

TIER_NAMES = {1: "official full stack", 2: "deep self-development", 3: "multi-platform exploration"}
# tier 1's name where every chosen stack is a community route: no official stack (review 109 p07)
COMMUNITY_TIER1_NAME = "documented full stack (a community route; no vendor page fits)"
# a stack whose engine or framework is an independent project's (xLLM, verl, LLaMA-Factory, ms-swift) on the vendor's
# libraries: documented and tested by that project, not the vendor's own product (review 165 p07)
INDEPENDENT_TIER1_NAME = "documented full stack (an independent project's engine on the vendor's libraries)"


def tier1_notes(context: RuleContext) -> list[Rationale]:
    """Tier 1 is the official stack on the target: the vendor's libraries under the engine or framework documented
    for it (which may be an open project, such as SGLang or llama.cpp)."""
    hardware = context.profile.hardware
    text = f"the stack documented for {hardware} on the vendor's own libraries: proven, supported, least to maintain"
    return [line(text, cite_profile(context.profile, "hardware"))]


def tier2_notes(context: RuleContext, choices: Sequence[Choice]) -> list[Rationale]:
    """Tier 2 is for key operators only; options beyond the team are listed to show the skill gap."""
    profile = context.profile
    routes = (*context.platform.deep_development.value, *context.platform.kernel_languages.value)
    outside = [option for option in dict.fromkeys(routes) if runs_outside_runtime(option, context)]
    if not choices and outside:  # MLX's kernels under a Core ML runtime (review 157 p13)
        return [outside_runtime_line(context, outside)]
    if not choices:
        text = f"no deep self-development candidate for {profile.hardware} in the knowledge base"
        return [line(text, cite_profile(profile, "hardware"))]
    hot_spots = "only for the few key operators that profiling (top-10 operators by time) shows are global hot spots"
    notes = [line(f"{hot_spots}; everything else stays on tier 1", cite_profile(profile, "model_type"))]
    route = context.platform.deep_development
    if route.note and any(choice.option in route.value for choice in choices):  # what is written there: NKI, BRGeMM...
        notes.append(
            line(f"how, on {profile.hardware}: {route.note}", cite_platform(context.platform, "deep_development"))
        )
    scope = context.platform.custom_kernel_concerns
    if scope is not None and scope.note:
        text = f"what they can write, on {profile.hardware}: {', '.join(scope.value)}; {scope.note}"
        notes.append(line(text, cite_platform(context.platform, "custom_kernel_concerns")))
    prebuilt = context.knowledge.stack(context.stack.prebuilt_by) if context.stack.prebuilt_by else None
    if prebuilt is not None and prebuilt.prebuilt_engines is not None:  # review 249 p14: Triton kernels under a NIM
        text = (
            f"tier 1's engines are built by their vendor ({prebuilt.prebuilt_engines.value.rstrip('.')}): no kernel "
            "below goes into them, so a hot spot worth one moves the model to an open route the team builds and serves "
            "itself (its own engine build, or the framework pipeline with these kernels), measured against tier 1 at "
            "the SLA before it replaces it"
        )
        notes.append(line(text, cite_stack_claim(prebuilt, "prebuilt_engines")))
    shares = hotop_shares(context.facts, profile)
    if shares is not None:
        notes.append(hot_spot_ranking(shares))
    beyond = sorted({choice.option for choice in choices if not choice.fits_team})
    if beyond:
        skills = [cite_claim(context.knowledge.get(option), "skill") for option in beyond]
        verb = "needs" if len(beyond) == 1 else "need"
        # writing kernels takes a kernel team at least, whatever skill calling the library takes (CNNL, BANG C)
        needed = max(
            (KERNEL_WRITING_SKILL, *(context.knowledge.get(option).skill.value for option in beyond)),
            key=SKILL_ORDER.index,
        )
        text = (
            f"writing kernels in {', '.join(beyond)} {verb} more skill than the {profile.team_skill} team has: listed "
            f"to show the gap, open to a {needed} team"
        )
        notes.append(line(text, cite_profile(profile, "team_skill"), *skills))
    unchosen = [
        option
        for option in route.value
        if option in context.knowledge.ids()
        and option not in {choice.option for choice in choices}
        and SKILL_ORDER.index(context.knowledge.get(option).skill.value) > SKILL_ORDER.index(profile.team_skill)
    ]
    if unchosen:  # review 244 p04: an AMD kernel team's tier 2 named Triton alone, never Composable Kernel
        names = ", ".join(context.knowledge.get(option).name for option in unchosen)
        needed = max((context.knowledge.get(option).skill.value for option in unchosen), key=SKILL_ORDER.index)
        text = (
            f"the vendor's own kernel route on {profile.hardware}, {names}, needs {'an' if needed == 'hpc' else 'a'} "
            f"{needed} team: beyond this "
            f"{profile.team_skill} team, so not listed here, and the next step where a hot spot outgrows the kernels "
            "above"
        )
        notes.append(
            line(text, cite_platform(context.platform, "deep_development"), cite_profile(profile, "team_skill"))
        )
    return notes


def portable_loss_risk(context: RuleContext) -> Citation | None:
    """The portable kernel language's risk that states the per-platform loss the method accepts (named in the policy
    by its words, not by its position)."""
    policy = context.knowledge.policy
    if policy.portable_kernel_language not in context.knowledge.ids() or not policy.portable_loss_risk:
        return None
    candidate = context.knowledge.get(policy.portable_kernel_language)
    index = next((i for i, risk in enumerate(candidate.risks) if policy.portable_loss_risk in risk.value), None)
    return cite_claim(candidate, f"risks[{index}]") if index is not None else None


def tier3_notes(context: RuleContext, choices: Sequence[Choice] = ()) -> list[Rationale]:
    """Tier 3 leads when the business must move between hardware; otherwise it is exploration. A family's own
    deployment runtime is not named underneath where tier 3 already deploys through one runtime everywhere."""
    profile = context.profile
    cites = [cite_profile(profile, "needs.cross_platform")]
    loss = portable_loss_risk(context)
    if loss is not None:
        cites.append(loss)
    if profile.needs.cross_platform:
        text = "the business must move between hardware: one cross-platform layer, accepting some per-platform loss"
        notes = [line(f"{text}; verify every target backend", *cites)]
        portable: set[str] = {c.concern for c in choices if c.concern == "deployment"}
        runtime = next((c.option for c in choices if c.concern == "deployment"), None)
        if runtime is not None and context.knowledge.layer_of(runtime) in RUNTIME_KERNEL_LAYERS:
            portable.add("gemm")  # a graph runtime runs its own GEMM kernels on every family (ORT's MLAS on Arm)
        for family in profile.needs.other_hardware:
            needs = platform_needs(context, family, skip=portable)
            platform = context.knowledge.platform(family)
            text = (
                f"on {family}, each platform's own underneath: {needs}"
                if needs
                else f"on {family}, {runtime}'s own backend for the family"
                if runtime
                else ""
            )
            if text:
                notes.append(
                    line(text, cite_platform(platform, "official.gemm"), cite_profile(profile, "needs.other_hardware"))
                )
        return notes
    return [line("exploration only: the profile runs on one hardware family", *cites)]


PLATFORM_NEEDS: tuple[Concern, ...] = ("gemm", "collectives", "deployment")  # what a second platform brings of its own


def platform_needs(context: RuleContext, family: str, skip: Collection[str] = ()) -> str:
    """'gemm hipblaslt, collectives rccl, deployment vllm': the first official option per concern the profile needs."""
    official = context.knowledge.platform(family).official
    profile = context.profile
    wanted = [
        c
        for c in PLATFORM_NEEDS
        if (c != "collectives" or profile.needs.devices > 1) and (c != "deployment" or profile.serves) and c not in skip
    ]
    platform = context.knowledge.platform(family)
    parts = []
    for concern in wanted:
        options = list(official.preference(concern))
        if concern == "deployment":
            options = serving_options(options, platform, profile.llm)
            options = context.serving_the_task(options)
        if options:
            parts.append(f"{concern} {options[0]}")
    return ", ".join(parts)


def tier_notes(context: RuleContext, number: int, choices: Sequence[Choice]) -> list[Rationale]:
    """What the tier is for this profile."""
    if number == 1:
        return tier1_notes(context)
    return tier2_notes(context, choices) if number == 2 else tier3_notes(context, choices)


def build_tier(context: RuleContext, number: TierNumber, decisions: Sequence[ConcernDecision]) -> Tier:
    """One tier: each decision's entry for it, split into choices and gaps, with notes and flags."""
    entries = [entry for decision in decisions if (entry := decision.entry(number)) is not None]
    choices = tuple(entry for entry in entries if isinstance(entry, Choice))
    gaps = tuple(entry for entry in entries if isinstance(entry, Gap))
    primary = number == (3 if context.profile.needs.cross_platform else 1)
    return Tier(
        tier=number,
        name=TIER_NAMES[number],
        primary=primary,
        fits_team=all(choice.fits_team for choice in choices),
        choices=choices,
        gaps=gaps,
        notes=tuple(tier_notes(context, number, choices)),
    )
