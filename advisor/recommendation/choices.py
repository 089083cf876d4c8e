"""Turning a Pick into the recommendation's records: a Choice with its rationale, a Gap, Rejections."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from advisor.knowledge.models import Candidate, Concern
from advisor.recommendation.citations import cite_claim, cite_profile, line
from advisor.recommendation.context import RuleContext, TierEntry
from advisor.recommendation.models import Choice, Gap, Rationale, Rejection
from advisor.recommendation.selection import Pick, phases


def candidate_rationale(candidate: Candidate, concern: Concern, context: RuleContext) -> list[Rationale]:
    """Why the knowledge base allows it here: hardware and concern, skill, and each workload phase."""
    profile = context.profile
    lines = [
        line(
            f"{candidate.name} serves {concern} on {profile.hardware}",
            cite_claim(candidate, "hardware"), cite_claim(candidate, "concerns"), cite_profile(profile, "hardware"),
        ),
        line(
            f"needs {candidate.skill.value} skill; the team is {profile.team_skill}",
            cite_claim(candidate, "skill"), cite_profile(profile, "team_skill"),
        ),
    ]  # fmt: skip
    for phase in phases(profile, concern):
        claim = getattr(candidate, phase)
        text = f"{phase} support: {claim.value}" + (f" ({claim.note})" if claim.note else "")
        lines.append(line(text, cite_claim(candidate, phase), cite_profile(profile, "workload")))
    return lines


def choice_from(
    pick: Pick,
    concern: Concern,
    context: RuleContext,
    *,
    settings: Mapping[str, str] | None = None,
    lines: Sequence[Rationale] = (),
    risk: bool = True,
) -> Choice:
    """The picked candidate as a Choice: the rule's own lines first, then the knowledge base's, then its first risk."""
    assert pick.chosen is not None, "choice_from needs a picked candidate"
    candidate = pick.chosen
    rationale = list(lines) + candidate_rationale(candidate, concern, context)
    if risk:
        rationale.append(line(f"watch: {candidate.risks[0].value}", cite_claim(candidate, "risks[0]")))
    return Choice(
        concern=concern, option=candidate.id, settings=dict(settings or {}), rationale=tuple(rationale),
        alternatives=pick.alternatives, fits_team=pick.fits_team,
    )  # fmt: skip


def gap_from(pick: Pick, concern: Concern, context: RuleContext, reason: str) -> Gap:
    """No candidate fits: the reason, then why each candidate considered was ruled out."""
    rationale = [line(reason, cite_profile(context.profile, "hardware"))]
    for candidate, reasons in pick.blocked:
        for why in reasons:
            rationale.append(Rationale(text=f"{candidate.id}: {why.text}", cites=why.cites))
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
