"""Picking a knowledge-base candidate for a concern: hardware, concern, workload, skill and capability checks.

The knowledge base decides what is possible (a candidate is only ever picked for a hardware family and
a concern it lists); the rules' preference lists decide what is preferred among the possible.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from advisor.knowledge.models import Candidate, Concern
from advisor.profile import Profile
from advisor.recommendation.citations import cite_claim, cite_profile, line
from advisor.recommendation.context import RuleContext
from advisor.recommendation.models import Rationale
from advisor.recommendation.policy import SKILL_ORDER

BLOCKING_SUPPORT = ("no", "not-applicable")


def serves(candidate: Candidate, hardware: str, concern: Concern) -> bool:
    """The knowledge base lists the candidate for this hardware family and this concern (a training framework
    is named by the platform's training_frameworks list instead of a concern claim)."""
    listed = concern in candidate.concerns.value or concern == "training-framework"
    return hardware in candidate.hardware.value and listed


def skill_reason(candidate: Candidate, profile: Profile) -> Rationale | None:
    """Why the candidate is beyond the team, or None when the team has the skill it needs."""
    if SKILL_ORDER.index(candidate.skill.value) <= SKILL_ORDER.index(profile.team_skill):
        return None
    text = f"needs a {candidate.skill.value} team; this team is {profile.team_skill}"
    return line(text, cite_claim(candidate, "skill"), cite_profile(profile, "team_skill"))


def phases(profile: Profile, concern: Concern) -> tuple[str, ...]:
    """The workload phases a concern's option must support (deployment is inference only)."""
    if concern == "deployment":
        return ("inference",)
    if concern == "training-framework":
        return ("training",)
    return tuple(phase for phase, needed in (("training", profile.trains), ("inference", profile.serves)) if needed)


def workload_reasons(candidate: Candidate, profile: Profile, concern: Concern) -> list[Rationale]:
    """One reason per workload phase the candidate does not support. A quantization toolkit is judged by the
    models it writes (int8/fp8, PTQ/QAT), not by the phases it runs in: the runtime serves its output."""
    if concern == "quantization" and candidate.layer.value == "quantization-toolkit":
        return []
    needed = phases(profile, concern)
    if profile.workload == "both" and any(getattr(candidate, phase).value not in BLOCKING_SUPPORT for phase in needed):
        return []  # with both workloads an option serves the part it runs; the other stack covers the rest
    reasons = []
    for phase in needed:
        if getattr(candidate, phase).value in BLOCKING_SUPPORT:
            text = f"does not run {phase} (knowledge base: {getattr(candidate, phase).value}); the workload is {profile.workload}"
            reasons.append(line(text, cite_claim(candidate, phase), cite_profile(profile, "workload")))
    return reasons


def requirement_reasons(candidate: Candidate, requirements: Sequence[str]) -> list[Rationale]:
    """One reason per required capability the knowledge base denies (no / not-applicable)."""
    reasons = []
    for attribute in requirements:
        value = getattr(candidate, attribute).value
        if value in BLOCKING_SUPPORT:
            label = attribute.replace("_", " ")
            label = label.upper() if label in ("fp8", "int8", "ptq", "qat") else label
            reasons.append(line(f"no {label} support (knowledge base: {value})", cite_claim(candidate, attribute)))
    return reasons


def out_of_role(candidate: Candidate, requirements: Sequence[str]) -> bool:
    """A required capability is 'not-applicable': the candidate does not play that role at all."""
    return any(getattr(candidate, attribute).value == "not-applicable" for attribute in requirements)


@dataclass(frozen=True)
class Pick:
    """The candidate picked for a concern (or none), whether it fits the team, and what was ruled out."""

    chosen: Candidate | None
    fits_team: bool
    blocked: tuple[tuple[Candidate, tuple[Rationale, ...]], ...]
    alternatives: tuple[str, ...]
    # preferred candidates nothing but the team's skill rules out (allow_skill_gap), in preference order
    held_by_skill: tuple[str, ...] = ()


def pick(
    context: RuleContext,
    concern: Concern,
    preference: Sequence[str],
    *,
    requirements: Sequence[str] = (),
    extra_blockers: Mapping[str, Sequence[Rationale]] | None = None,
    allow_skill_gap: bool = False,
    consider_all: bool = True,
) -> Pick:
    """The first preferred candidate with no blocker; the platform's other candidates for the same concern
    (with consider_all) are never picked, only listed as alternatives or ruled out (unless out of role: a
    kernel library is no calibration toolkit, so it is not "rejected" as one). The platform's candidates are
    those its data file names: a stack of another ecosystem that also runs there (MLX or XLA on NVIDIA GPUs)
    is not weighed against the platform's own.

    With allow_skill_gap (tiers 2 and 3), a preferred candidate blocked only by skill is still picked
    when no preferred candidate within the team's skill fits, and the pick says it does not fit the team.
    """
    profile, knowledge = context.profile, context.knowledge
    # A candidate limited to other model types (an LLM serving engine for a CNN) is out of scope, not rejected.
    known = set(knowledge.ids())
    preferred = [knowledge.get(candidate_id) for candidate_id in preference if candidate_id in known]
    preferred = [
        candidate
        for candidate in preferred
        if candidate.serves_model_type(profile.model_type) and candidate.serves_task(profile.serving_task)
    ]
    ecosystem = context.platform.named_ids()
    others = [
        c
        for c in knowledge.candidates
        if consider_all
        and c.id in ecosystem
        and serves(c, profile.hardware, concern)
        and c not in preferred
        and not out_of_role(c, requirements)
        and c.serves_model_type(profile.model_type)
        and c.serves_task(profile.serving_task)
    ]
    fitting: list[Candidate] = []
    skill_only: list[Candidate] = []
    blocked: list[tuple[Candidate, tuple[Rationale, ...]]] = []
    for candidate in preferred + others:
        reasons = _blockers(candidate, context, concern, requirements, (extra_blockers or {}).get(candidate.id, ()))
        skill = skill_reason(candidate, profile)
        if not reasons and skill is None:
            fitting.append(candidate)
        elif not reasons and skill is not None and allow_skill_gap and candidate in preferred:
            skill_only.append(candidate)
        else:
            blocked.append((candidate, tuple(reasons) + ((skill,) if skill is not None else ())))
    chosen = next((c for c in fitting if c in preferred), None)
    alternatives = tuple(c.id for c in fitting if c is not chosen)
    held = tuple(c.id for c in skill_only)
    if chosen is not None:
        return Pick(chosen, True, tuple(blocked), alternatives, held)
    if skill_only:
        return Pick(skill_only[0], False, tuple(blocked), alternatives, held)
    return Pick(None, True, tuple(blocked), alternatives, held)


def _blockers(
    candidate: Candidate,
    context: RuleContext,
    concern: Concern,
    requirements: Sequence[str],
    extra: Sequence[Rationale],
) -> list[Rationale]:
    hardware = context.profile.hardware
    if not serves(candidate, hardware, concern):
        listed = "hardware" if hardware not in candidate.hardware.value else "concerns"
        text = f"the knowledge base does not list it for {concern} on {hardware}"
        return [line(text, cite_claim(candidate, listed), cite_profile(context.profile, "hardware"))]
    workload = workload_reasons(candidate, context.profile, concern)
    return workload + requirement_reasons(candidate, requirements) + list(extra)
