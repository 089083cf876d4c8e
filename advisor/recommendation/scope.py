"""Advice scoped to the profile's platforms: a reason, risk or rejection that names another family's own
technology (CUDA graphs on a TPU, AVX-512 on Arm) is not shown. Each platform lists its terms in its data file."""

from __future__ import annotations

import re
from collections.abc import Sequence

from advisor.knowledge.models import KnowledgeBase
from advisor.profile import Profile
from advisor.recommendation.citations import other_families_terms
from advisor.recommendation.models import Choice, Rationale, Rejection, SwitchCondition, Tier


def foreign_terms(profile: Profile, knowledge: KnowledgeBase) -> re.Pattern[str] | None:
    """A pattern matching the terms of every family the profile does not run on (None when there are none)."""
    return other_families_terms(profile.families, knowledge)


def carried_here(choice: Choice) -> Rationale:
    """The plain reason a choice keeps when every other one named another family: it carries its concern here,
    citing what its first reason cited."""
    return Rationale(text=f"{choice.option} carries {choice.concern} here", cites=choice.rationale[0].cites)


def _kept(lines: Sequence[Rationale], foreign: re.Pattern[str]) -> tuple[Rationale, ...]:
    return tuple(reason for reason in lines if not foreign.search(reason.text))


def scoped_choice(choice: Choice, foreign: re.Pattern[str]) -> Choice:
    """The choice without reasons about other platforms (a plain line citing the same claim if every one would go)."""
    kept = _kept(choice.rationale, foreign) or (carried_here(choice),)
    settings = {key: value for key, value in choice.settings.items() if not foreign.search(value)}
    return choice.model_copy(update={"rationale": kept, "settings": settings})


def scoped_tier(tier: Tier, foreign: re.Pattern[str]) -> Tier:
    """A tier whose choices and notes speak only of the profile's platforms."""
    choices = tuple(scoped_choice(choice, foreign) for choice in tier.choices)
    notes = _kept(tier.notes, foreign) or tier.notes[:1]
    return tier.model_copy(update={"choices": choices, "notes": notes})


def scoped_rejections(rejected: Sequence[Rejection], foreign: re.Pattern[str]) -> tuple[Rejection, ...]:
    """Rejections keep only reasons about the profile's platforms; one left with none is dropped."""
    kept = []
    for rejection in rejected:
        reasons = _kept(rejection.reasons, foreign)
        if reasons:
            kept.append(rejection.model_copy(update={"reasons": reasons}))
    return tuple(kept)


def scoped_switches(switches: Sequence[SwitchCondition], foreign: re.Pattern[str]) -> tuple[SwitchCondition, ...]:
    """Switch conditions that speak of the profile's platforms only."""
    return tuple(condition for condition in switches if not foreign.search(condition.description))
