"""Turning a Pick into the recommendation's records: a Choice with its reasons, a Gap, Rejections.

Reasons are for a team lead: the rule's own sentences (why this option, from the evidence or the
stack), else the platform's preference; then the one knowledge-base note the profile relies on and the
one risk to watch. Citations carry the claims and cases; the sentences do not repeat them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from advisor.knowledge.model_sizes import about_another_model, about_another_series
from advisor.knowledge.models import Candidate, Concern
from advisor.profile import Profile
from advisor.recommendation.citations import cite_claim, cite_compatibility, cite_platform, cite_profile, line
from advisor.recommendation.context import RuleContext, TierEntry
from advisor.recommendation.models import Choice, Gap, Rationale, Rejection
from advisor.recommendation.policy import (
    FORMAT_WORDS,
    KERNEL_WRITING_SKILL,
    QUANTIZATION_WORDS,
    SKILL_ORDER,
    claimed_format,
)
from advisor.recommendation.selection import Pick
from advisor.vision_models import layernorm_model

MAX_REASONS = 3  # sentences before the risk to watch

# The capability a concern leans on, when the profile asks for it.
_RELIED_ON: dict[str, str] = {"dynamic-shapes": "dynamic_shapes", "collectives": "distributed"}
_RISK_WORDS = {
    "fp8": ("FP8",),
    "int8": ("INT8", "int8"),
    "dynamic_shapes": ("dynamic", "shape"),
    "long_context": ("long", "memory"),
    "training": ("training", "train"),
    "inference": ("serving", "inference", "decode"),
}


def official_line(candidate: Candidate, concern: Concern, context: RuleContext) -> Rationale | None:
    """Where the option stands in the platform's official stack for this concern."""
    path = f"official.{concern.replace('-', '_')}"
    claims = context.platform.claims()
    if path not in claims or candidate.id not in claims[path].value:
        return None
    rank = list(claims[path].value).index(candidate.id)
    where = "first choice" if rank == 0 else "next choice once the ones before it are ruled out"
    text = f"{candidate.name}: the {context.platform.name} stack's {where} for {concern}"
    return line(text, cite_platform(context.platform, path), cite_claim(candidate, "hardware"))


def relied_on_note(candidate: Candidate, concern: Concern, profile: Profile) -> Rationale | None:
    """The knowledge base's note on the capability the profile relies on (the quantized dtype, dynamic shapes)."""
    attribute: str | None = (
        claimed_format(profile.needs.quantization) if concern in ("quantization", "deployment") else None
    )
    if attribute is None and concern in _RELIED_ON:
        attribute = _RELIED_ON[concern]
    if attribute is None and concern == "deployment" and profile.needs.dynamic_shapes:
        attribute = "dynamic_shapes"
    if attribute is None:
        return None
    claim = getattr(candidate, attribute)
    if not claim.note:
        return None
    label = attribute.replace("_", " ")
    label = label.upper() if label in ("fp8", "int8") else label
    return line(f"{label}: {claim.note}", cite_claim(candidate, attribute))


# A risk about splitting a job over devices (tensor parallelism, scaling from 1 to 8): none for a one-device job.
MULTI_DEVICE_RISK = re.compile(r"[Tt]ensor[- ]parallel|strong-scaling|collapse on eight")
# A risk about gradients (their all-reduce overlapping the backward pass): a job that trains only.
TRAINING_RISK = re.compile(r"\b[Gg]radient|\bthat also trains\b")  # gradients, or a fleet that also trains
# The method's one-node scaling test (1 to 8 devices): a job over more devices gets the node-by-node scaling switch.
ONE_NODE_SCALING_RISK = re.compile(r"strong-scaling test from 1 to 8\b")
# A risk about convolution tensor layouts (NHWC against NCHW): none for a model with no convolutions (review 239 p14:
# cuDNN's layout risk under a transformer's attention row).
CONVOLUTION_LAYOUT_RISK = re.compile(r"\bNHWC\b|\bNCHW\b")


def risk_applies(text: str, profile: Profile) -> bool:
    """False for a risk about quantized formats the profile does not ask: one naming only other formats, or, with no
    quantization asked, one about any format or about quantizing at all; for a convolutional model, one about
    LayerNorm, which a CNN does not have (its BatchNorm folds into the convolutions) unless it is a ConvNeXt; one about gradients for a job that
    trains nothing; one about convolution layouts for a model with none; one that opens on another version of the named model's series; and one about QLoRA for a job that
    does not train adapters on a quantized model (a LoRA job that quantizes only for serving trains in bf16)."""
    if profile.convolutional and not layernorm_model(profile.model_name) and "LayerNorm" in text:
        return False
    if about_another_series(text, profile.model_name) or about_another_model(text, profile.model_name):
        return False
    if "QLoRA" in text:  # LoRA on 4-bit frozen weights: only a LoRA job that trains on a quantized model
        return profile.training == "lora" and profile.needs.quantized and not profile.serves
    if not profile.trains and TRAINING_RISK.search(text):
        return False
    if not profile.convolutional and CONVOLUTION_LAYOUT_RISK.search(text):
        return False
    if profile.needs.devices == 1 and MULTI_DEVICE_RISK.search(text):
        return False
    if profile.needs.devices > 8 and ONE_NODE_SCALING_RISK.search(text):
        return False
    named = {name for name, words in FORMAT_WORDS.items() if any(word in text for word in words)}
    if profile.needs.quantized:
        return not named or profile.needs.quantization in named
    return not named and not any(word in text for word in QUANTIZATION_WORDS)


def names_a_need(text: str, profile: Profile) -> bool:
    """The risk speaks of something the profile needs (its format, dynamic shapes, long context, its workload)."""
    return any(word in text for need, words in _RISK_WORDS.items() for word in words if _profile_has(profile, need))


def risk_to_watch(candidate: Candidate, profile: Profile) -> Rationale | None:
    """The candidate's risk that concerns this profile most (its first that applies otherwise; None if none does)."""
    applying = [(index, risk) for index, risk in enumerate(candidate.risks) if risk_applies(risk.value, profile)]
    for index, risk in applying:
        if names_a_need(risk.value, profile):
            return line(f"watch: {risk.value}", cite_claim(candidate, f"risks[{index}]"))
    if not applying:
        return None
    index, risk = applying[0]
    return line(f"watch: {risk.value}", cite_claim(candidate, f"risks[{index}]"))


def _profile_has(profile: Profile, need: str) -> bool:
    if need in ("fp8", "int8"):
        return profile.needs.quantization == need
    if need in ("dynamic_shapes", "long_context"):
        return bool(getattr(profile.needs, need))
    return profile.trains if need == "training" else profile.serves


def skill_gap_line(candidate: Candidate, profile: Profile) -> Rationale:
    """The one line that says the option needs more skill than the team has: the skill to call it, or (where the team
    has that) the skill to write kernels in it."""
    needed = candidate.skill.value
    if SKILL_ORDER.index(needed) <= SKILL_ORDER.index(profile.team_skill):
        needs = (
            f"calling it needs a {needed} team, but writing its kernels needs a {KERNEL_WRITING_SKILL} team at least"
        )
    else:
        needs = f"needs a {needed} team"
    return line(
        f"{needs}; this team is {profile.team_skill}",
        cite_claim(candidate, "skill"),
        cite_profile(profile, "team_skill"),
    )


def choice_from(
    pick: Pick,
    concern: Concern,
    context: RuleContext,
    *,
    settings: Mapping[str, str] | None = None,
    lines: Sequence[Rationale] = (),
    risk: bool = True,
) -> Choice:
    """The picked candidate as a Choice: the rule's reasons (else the platform's preference), the note the
    profile relies on, a skill gap if any, and one risk to watch."""
    assert pick.chosen is not None, "choice_from needs a picked candidate"
    candidate = pick.chosen
    reasons = list(lines)
    if not reasons:
        official = official_line(candidate, concern, context)
        reasons.append(
            official
            if official is not None
            else line(
                f"{candidate.name} for {concern} on {context.profile.hardware}", cite_claim(candidate, "hardware")
            )
        )
    note = relied_on_note(candidate, concern, context.profile)
    claim_text = note.text.partition(": ")[2] if note is not None else ""
    if note is not None and not any(claim_text in reason.text for reason in reasons):
        reasons.append(note)
    reasons = reasons[:MAX_REASONS]
    if not pick.fits_team:
        reasons.append(skill_gap_line(candidate, context.profile))
    watch = risk_to_watch(candidate, context.profile) if risk else None
    if watch is not None:
        reasons.append(watch)
    return Choice(
        concern=concern,
        option=candidate.id,
        settings=dict(settings or {}),
        rationale=tuple(reasons),
        alternatives=pick.alternatives,
        fits_team=pick.fits_team,
    )


def engine_choice(context: RuleContext, concern: Concern, engine: Candidate) -> Choice:
    """The serving engine itself as the choice for a concern it carries (fusion by its own compile passes,
    attention by its own kernels): nothing separate to integrate."""
    claim_field = "fusion" if concern == "fusion" else "inference"
    claim = getattr(engine, claim_field)
    text = f"done inside {engine.name}" + (f": {claim.note}" if claim.note else "")
    cite = cite_claim(engine, claim_field)
    kernels = context.knowledge.compatibility.attention_kernels.get(engine.id)
    if concern == "attention" and kernels is not None and kernels.note:  # what its attention backends are, recorded
        text, cite = (
            f"done inside {engine.name}: {kernels.note}",
            cite_compatibility("attention_kernels", engine.id, kernels),
        )
    watch = risk_to_watch(engine, context.profile)
    reasons = (line(text, cite), *([watch] if watch is not None else []))
    by = "serving-engine" if engine.layer.value == "serving-engine" else "runtime"
    return Choice(concern=concern, option=engine.id, settings={"by": by}, rationale=reasons)


def gap_from(pick: Pick, concern: Concern, context: RuleContext, reason: str) -> Gap:
    """No candidate fits: the reason, then why the candidates considered were ruled out (at most three)."""
    rationale = [line(reason, cite_profile(context.profile, "hardware"))]
    for candidate, reasons in pick.blocked[:3]:
        if reasons:
            why = reasons[0]
            rationale.append(Rationale(text=f"{candidate.name}: {why.text}", cites=why.cites))
    return Gap(concern=concern, rationale=tuple(rationale))


def entry_from(
    pick: Pick,
    concern: Concern,
    context: RuleContext,
    *,
    gap_reason: str,
    settings: Mapping[str, str] | None = None,
    lines: Sequence[Rationale] = (),
) -> TierEntry:
    """A Choice when a candidate was picked, else a Gap."""
    if pick.chosen is None:
        return gap_from(pick, concern, context, gap_reason)
    return choice_from(pick, concern, context, settings=settings, lines=lines)


def rejections_from(pick: Pick, concern: Concern) -> tuple[Rejection, ...]:
    """Every candidate the pick ruled out, with its reasons."""
    return tuple(Rejection(option=c.id, concerns=(concern,), reasons=reasons) for c, reasons in pick.blocked if reasons)


def rejection(candidate: Candidate, concern: Concern, *reasons: Rationale) -> Rejection:
    """One candidate given up for one concern."""
    return Rejection(option=candidate.id, concerns=(concern,), reasons=reasons)
