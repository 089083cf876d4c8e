"""The readable summary of a Recommendation, as plain text lines (the CLI prints them)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from advisor.profile import Profile
from advisor.recommendation.choices import names_a_need, risk_applies
from advisor.recommendation.models import Choice, ChosenStack, Citation, Gap, Rationale, Recommendation, Tier
from advisor.recommendation.reference import quoted
from probes.terminal_text import one_line

INDENT = "    "


def cites_text(cites: Sequence[Citation]) -> str:
    """Citations grouped by kind: 'profile: hardware; kb: cublas.skill; evidence: 3 cases'."""
    profile = [c.ref for c in cites if c.kind == "profile"]
    knowledge = [c.ref for c in cites if c.kind == "knowledge"]
    evidence = [c for c in cites if c.kind == "evidence"]
    reference = [c.ref for c in cites if c.kind == "reference"]
    parts = []
    if profile:
        parts.append("profile: " + ", ".join(dict.fromkeys(profile)))
    if knowledge:
        parts.append("kb: " + ", ".join(dict.fromkeys(knowledge)))
    if evidence:
        parts.append(f"evidence: {len(evidence)} case{'s' if len(evidence) != 1 else ''}")
    if reference:
        parts.append("reference: " + ", ".join(dict.fromkeys(reference)))
    return "; ".join(parts)


def rationale_lines(rationale: Sequence[Rationale], indent: str) -> list[str]:
    """One line per rationale sentence with its citations in brackets."""
    return [f"{indent}- {item.text} [{cites_text(item.cites)}]" for item in rationale]


def choice_lines(choice: Choice, detailed: bool) -> list[str]:
    """A choice's headline (option, settings, skill gap) and, when detailed, its rationale."""
    settings = ", ".join(f"{name}={value}" for name, value in choice.detail_settings().items())
    flags = ("" if choice.fits_team else "  (beyond the team's skill)") + (f"  [{settings}]" if settings else "")
    lines = [f"  {choice.concern:<15} {choice.label}{flags}"]
    if not detailed:
        return lines
    lines += rationale_lines(choice.rationale, INDENT)
    if choice.impact is not None:
        lines.append(f"{INDENT}= expected impact: {choice.impact.text} [{cites_text(choice.impact.cites)}]")
    return lines


def gap_lines(gap: Gap, detailed: bool) -> list[str]:
    """A gap's concern and first reason; the other reasons when detailed."""
    lines = [f"  {gap.concern:<15} (none) {gap.rationale[0].text}"]
    return lines + (rationale_lines(gap.rationale[1:], INDENT) if detailed else [])


def tier_lines(tier: Tier) -> list[str]:
    """A tier's heading, notes, choices and gaps; rationale in full for the primary tier and for tier 1 (the official
    stack every record starts from)."""
    marks = (" [primary]" if tier.primary else "") + ("" if tier.fits_team else " [needs more skill than the team has]")
    lines = [f"Tier {tier.tier}: {tier.name}{marks}"]
    lines += [f"  {note.text}" for note in tier.notes]
    detailed = tier.primary or tier.tier == 1
    for choice in tier.choices:
        lines += choice_lines(choice, detailed=detailed)
    if detailed:
        for gap in tier.gaps:
            lines += gap_lines(gap, detailed=True)
    elif tier.gaps:
        lines.append(f"  (nothing for: {', '.join(dict.fromkeys(gap.concern for gap in tier.gaps))})")
    return lines


NO_VERSIONS = "its page states no versions: record the ones you install, as the review's baseline"


def versions_text(stack: ChosenStack) -> str:
    """'vllm 0.11.0, rocm 7.0', or what to do when the stack's page states no versions."""
    if not stack.validated_with:
        return NO_VERSIONS
    return ", ".join(f"{name} {version}" for name, version in stack.validated_with.items())


def in_sentence(text: str) -> str:
    """A sentence to follow 'because': its first letter lowered unless it starts a name or acronym ('INC', 'vLLM')."""
    first = text.split(" ", 1)[0]
    return text[:1].lower() + text[1:] if first[1:].islower() and first[1:].isalpha() else text


def applying_risks(stack: ChosenStack, profile: Profile) -> list[tuple[int, str]]:
    """The chosen stack's risks that concern this profile, each with its index among the stack's risks: those that
    speak of the profile's model first, then those that name its device (review 125 p06: the record kept an A3 risk
    and left out "On Atlas 800 A2 (910B) ..." for a 910B job), then those that speak of a need of the profile."""
    applying = [(risk.index, risk.text) for risk in stack.risks if risk_applies(risk.text, profile)]
    return sorted(
        applying,
        key=lambda item: (
            not names_the_model(item[1], profile),
            not names_the_device(item[1], profile),
            not names_a_need(item[1], profile),
        ),
    )


def names_the_device(text: str, profile: Profile) -> bool:
    """The risk names the profile's device by the model number in its id ('910B' of ascend-910b, 'H200' of h200-sxm)."""
    if profile.device is None:
        return False
    numbered = [part for part in profile.device.split("-") if any(ch.isdigit() for ch in part)]
    return any(re.search(rf"(?<![\w.]){re.escape(part)}(?![\w])", text, re.IGNORECASE) for part in numbered)


def names_the_model(text: str, profile: Profile) -> bool:
    """The risk speaks of the profile's model: its name, or the release its name ends with ('Instruct-2507' for
    Qwen/Qwen3-235B-A22B-Instruct-2507; review 120 p05, where the record's command pointed to that risk and left it
    out)."""
    if profile.model_name is None:
        return False
    parts = profile.model_name.split("/")[-1].split("-")
    endings = ["-".join(parts[start:]) for start in range(len(parts) - 1)]  # the whole name, down to two parts
    return any(ending in text for ending in endings)


def chosen_stack_lines(stack: ChosenStack, profile: Profile) -> list[str]:
    """A chosen stack's validated versions and its own risks that concern the profile (each cited to its claim)."""
    lines = [f"Chosen: {stack.name} ({stack.workload})", f"  validated with: {versions_text(stack)}"]
    if (models := stack.models_text()) is not None:
        lines.append(f"  {models}")
    if stack.preview is not None:
        lines.append(f"  preview: {stack.preview} [kb: {stack.stack}.preview]")
    if stack.superseded is not None:
        lines.append(f"  superseded: {stack.superseded} [kb: {stack.stack}.superseded]")
    if stack.maintained_until is not None:
        lines.append(
            f"  maintained until: {stack.maintained_until.isoformat()}: the record is reviewed by then "
            f"[kb: {stack.stack}.maintained_until]"
        )
    lines += [f"  watch: {risk} [kb: {stack.stack}.risks[{index}]]" for index, risk in applying_risks(stack, profile)]
    return lines


def estimate_lines(recommendation: Recommendation) -> list[str]:
    """One line per engine, best first: tokens/s per GPU, the configuration and its latencies."""
    return [
        f"{e.engine} {e.engine_version}: {e.tokens_per_s_per_gpu:.0f} tokens/s per GPU, {e.mode} {e.parallel}, batch "
        f"{e.batch}, TTFT {e.ttft_ms:.0f} ms, TPOT {e.tpot_ms:.1f} ms"
        + (f" (config: {e.config_file})" if e.config_file else "")
        for e in recommendation.estimates
    ]


def summary_lines(recommendation: Recommendation) -> list[str]:
    """The whole recommendation for a reader: who it is for, confidence, tiers, rejections, switches."""
    profile = recommendation.profile
    title = profile.title or f"{profile.model_type} on {profile.hardware}"
    lines = [f"Recommendation: {title} ({profile.workload}, {profile.team_skill} team)"]
    proxy = " (includes proxy evidence from other hardware)" if recommendation.proxy_evidence else ""
    lines.append(f"Confidence {recommendation.confidence:.2f}{proxy}")
    lines += [f"  - {note}" for note in recommendation.confidence_notes]
    if recommendation.verdict:
        lines += ["", f"Verdict: {recommendation.verdict}"]
    if recommendation.stacks_considered:
        lines += ["", "Stacks considered"]
        for option in recommendation.stacks_considered:
            mark = "chosen" if option.chosen else "not chosen"
            lines.append(
                f"  {option.stack} ({option.workload}, {', '.join(option.precisions)}): {mark}: {option.reason}"
            )
    for stack in recommendation.stacks:
        lines += ["", *chosen_stack_lines(stack, profile)]
    if recommendation.capacity:
        lines += ["", *(reason.text for reason in recommendation.capacity)]
    if recommendation.estimates_note is not None:
        lines += ["", f"Serving estimate: {recommendation.estimates_note}"]
        lines += [f"  {row}" for row in estimate_lines(recommendation)]
    if recommendation.reference_note is not None:
        lines += ["", f"Reference: {recommendation.reference_note}"]
        lines += [f"  - {text}" for text in quoted(recommendation.reference)]
    for tier in recommendation.tiers:
        lines += ["", *tier_lines(tier)]
    if recommendation.rejected:
        lines += ["", "Rejected"]
        for rejection in recommendation.rejected:
            lines.append(f"  {rejection.option} ({', '.join(rejection.concerns)})")
            lines += rationale_lines(rejection.reasons, INDENT)
    if recommendation.switch_conditions:
        lines += ["", "Switch when"]
        for condition in recommendation.switch_conditions:
            also = "".join(f" and {p.metric} {p.op} {p.threshold}" for p in condition.also)
            lines.append(f"  {condition.id}: {condition.metric} {condition.op} {condition.threshold}{also}")
            lines.append(f"{INDENT}{condition.description}")
    if recommendation.skipped_concerns:
        lines += ["", "Not needed"]
        lines += [f"  {skipped.concern}: {skipped.rationale[0].text}" for skipped in recommendation.skipped_concerns]
    return [one_line(line) for line in lines]  # a title's or a name's own newline starts no line of its own
