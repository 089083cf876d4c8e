"""How sure the recommendation is: evidence where it counts, case quality, host load, unknown claims, gaps.

Each factor is a small function returning (multiplier, notes); `overall_confidence` multiplies them.
Noisy and failed cases lower the confidence instead of silently counting.
"""

from __future__ import annotations

from collections.abc import Sequence

from advisor.knowledge.models import KnowledgeBase
from advisor.profile import Profile
from advisor.recommendation.facts import EvidenceFacts, QualityCounts
from advisor.recommendation.models import Choice, Gap
from advisor.recommendation.selection import phases

BASE_ON_TARGET = 0.85
BASE_PROXY_ONLY = 0.65
BASE_NO_EVIDENCE = 0.5
PER_UNKNOWN_CLAIM = 0.95
PER_GAP = 0.95
FLOOR, CEILING = 0.05, 0.95


def evidence_base(facts: EvidenceFacts) -> tuple[float, list[str]]:
    """Starting point: measured on the target, only on other hardware (proxy), or not measured at all."""
    if facts.measured_on_target:
        return BASE_ON_TARGET, [f"evidence measured on the target ({facts.target})"]
    if facts.proxy:
        families = sorted({source.hardware or "unknown" for source in facts.sources})
        return BASE_PROXY_ONLY, [
            f"proxy evidence only ({', '.join(families)}): it informs portable facts (memory growth, quantization "
            f"error, recompilations); its speed figures are not applied to {facts.target}"
        ]
    return BASE_NO_EVIDENCE, ["no evidence: the choices rest on the knowledge base alone; run `advisor probe` there"]


def case_quality_factor(quality: QualityCounts) -> tuple[float, list[str]]:
    """Failed cases cost half their share, noisy timed cases (IQR/median above 10%) almost a third of theirs."""
    if quality.attempted == 0:
        return 1.0, []
    failed_share = quality.failed / quality.attempted
    noisy_share = quality.noisy / quality.ok if quality.ok else 0.0
    notes = []
    if quality.failed:
        notes.append(f"{quality.failed} of {quality.attempted} attempted cases failed")
    if quality.noisy:
        notes.append(f"{quality.noisy} of {quality.ok} timed cases were noisy (IQR/median above the noise threshold)")
    return 1.0 - 0.5 * failed_share - 0.3 * noisy_share, notes


def contention_factor(facts: EvidenceFacts) -> tuple[float, list[str]]:
    """A busy host makes every timing suspect."""
    if facts.host_busy:
        return 0.9, ["other processes kept the host busy while probing"]
    return 1.0, []


def unknown_claims(choices: Sequence[Choice], knowledge: KnowledgeBase, profile: Profile) -> list[str]:
    """Claims the tier-1 choices rely on that the knowledge base marks unknown."""
    notes = []
    for choice in choices:
        candidate = knowledge.get(choice.option)
        relied_on = list(phases(profile, choice.concern))
        if choice.concern in ("quantization", "deployment") and profile.needs.quantized:
            relied_on.append(profile.needs.quantization)
        if choice.concern == "quantization":
            relied_on.append(profile.needs.quantization_method)
        if profile.needs.dynamic_shapes and choice.concern in ("dynamic-shapes", "deployment"):
            relied_on.append("dynamic_shapes")
        if choice.concern == "collectives":
            relied_on.append("distributed")
        for attribute in dict.fromkeys(relied_on):
            if getattr(candidate, attribute).value == "unknown":
                notes.append(f"{candidate.id}.{attribute} is unknown: probe it before relying on it")
    return notes


def overall_confidence(
    facts: EvidenceFacts, choices: Sequence[Choice], gaps: Sequence[Gap], knowledge: KnowledgeBase, profile: Profile
) -> tuple[float, tuple[str, ...]]:
    """The product of every factor, clamped to [0.05, 0.95] and rounded to two decimals, with its notes."""
    value, notes = evidence_base(facts)
    for factor, more in (case_quality_factor(facts.quality), contention_factor(facts)):
        value *= factor
        notes += more
    unknown = unknown_claims(choices, knowledge, profile)
    value *= PER_UNKNOWN_CLAIM ** len(unknown)
    notes += unknown
    if gaps:
        value *= PER_GAP ** len(gaps)
        notes.append(f"tier 1 leaves {len(gaps)} concern(s) open: {', '.join(gap.concern for gap in gaps)}")
    return round(min(CEILING, max(FLOOR, value)), 2), tuple(notes)
