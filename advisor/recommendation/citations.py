"""Citations and rationale lines: every sentence says which profile field, claim or case drove it."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from advisor.knowledge.model_sizes import PublishedCheckpoint, QatRelease
from advisor.knowledge.models import Candidate, Claim, KnowledgeBase
from advisor.knowledge.platforms import Platform
from advisor.knowledge.stacks import RUNNER_ROLES, Component, Stack
from advisor.profile import Profile
from advisor.recommendation.facts import EvidenceFacts, Fact
from advisor.recommendation.models import Citation, Rationale
from advisor.recommendation.policy import PRECISIONS_FOR, claimed_format
from advisor.recommendation.settled import unsettled_text


def profile_value(profile: Profile, path: str) -> object:
    """The value at a dotted field path, e.g. 'needs.quantization'."""
    value: object = profile
    for part in path.split("."):
        value = getattr(value, part)
    return value


def cite_profile(profile: Profile, path: str) -> Citation:
    """A profile field and its value."""
    value = profile_value(profile, path)
    figure = str(value).lower() if isinstance(value, bool) else str(value)
    return Citation(kind="profile", ref=path, figure=figure)


def cite_claim(candidate: Candidate, attribute: str) -> Citation:
    """A knowledge-base claim ('cublas.skill', 'cudnn.risks[0]') with its value and source."""
    claim = candidate.claims()[attribute]
    return Citation(kind="knowledge", ref=f"{candidate.id}.{attribute}", figure=claim.text(), source=claim.source)


def cite_stack(stack: Stack, component: Component | None = None) -> Citation:
    """The stack (or one of its parts) as documented, with the page that documents it."""
    if component is None or component not in stack.components:  # a runner's own kernels: the stack's page
        return Citation(kind="knowledge", ref=f"{stack.id}.summary", figure=stack.name, source=stack.source)
    return Citation(
        kind="knowledge",
        ref=f"{stack.id}.{stack.component_ref(component)}",
        figure=component.name,
        source=component.source or stack.source,
    )


def cite_stack_claim(stack: Stack, field: str, figure: str | None = None) -> Citation:
    """One of the stack's own claims (its `long_context`, `loads_releases`...), with the page it comes from; `figure`:
    what the citation shows, the stack's name by default."""
    claim = stack.claims()[field]
    return Citation(kind="knowledge", ref=f"{stack.id}.{field}", figure=figure or stack.name, source=claim.source)


def cite_release(release: PublishedCheckpoint) -> Citation:
    """A catalogued checkpoint release (advisor/data/published_checkpoints.yaml), with the card that names it."""
    return Citation(
        kind="knowledge", ref=f"published_checkpoints.{release.model}", figure=release.checkpoint, source=release.source
    )


def cite_qat_release(release: QatRelease) -> Citation:
    """A publisher's QAT checkpoint (advisor/data/qat_checkpoints.yaml), with the page that names it."""
    return Citation(
        kind="knowledge", ref=f"qat_checkpoints.{release.model}", figure=release.checkpoint, source=release.source
    )


def format_stacks(candidate: Candidate, asked: str, knowledge: KnowledgeBase) -> list[Stack]:
    """The stacks that run the candidate as one of their parts in one of the asked quantization's formats (AWQ INT4 on
    vLLM, NVFP4 on TensorRT-LLM): for a 4-bit ask, which no candidate claim speaks of, what documents it."""
    formats = set(PRECISIONS_FOR[asked])
    found = [
        stack
        for stack in knowledge.stacks
        if formats & set(stack.applies_to.precisions) and any(c.candidate == candidate.id for c in stack.components)
    ]
    # a stack the candidate runs (MLX LM's own) before one where it is a lesser part (an export step of ExecuTorch's)
    return sorted(
        found,
        key=lambda stack: not any(c.candidate == candidate.id and c.role in RUNNER_ROLES for c in stack.components),
    )


def format_support(candidate: Candidate, asked: str, knowledge: KnowledgeBase) -> str:
    """How the knowledge base says the candidate supports the asked quantization: its own claim for an 8-bit format; for
    a 4-bit one, 'yes' where a stack runs it in that format, else 'unknown'."""
    claimed = claimed_format(asked)
    if claimed is not None:
        return str(getattr(candidate, claimed).value)
    return "yes" if format_stacks(candidate, asked, knowledge) else "unknown"


def cite_format(
    candidate: Candidate, asked: str, knowledge: KnowledgeBase, family: str | None = None, device: str | None = None
) -> Citation:
    """What documents the candidate's support for the asked quantization: its claim, or the first stack that runs it in
    that format, on `family` where one is given (its summary claim where none does: another family's stack says
    nothing of this one), one validated on `device` first (a Graviton page for a Graviton, not an Android one)."""
    claimed = claimed_format(asked)
    if claimed is not None:
        return cite_claim(candidate, claimed)
    stacks = [
        stack
        for stack in format_stacks(candidate, asked, knowledge)
        if family is None or stack.applies_to.family == family
    ]
    # a stack validated on the device first, a generic route before a recipe for named models (stable: the runner's own
    # stacks stay before those where it is a lesser part)
    stacks.sort(key=lambda stack: (device not in stack.applies_to.devices, bool(stack.applies_to.models)))
    return cite_stack(stacks[0]) if stacks else cite_claim(candidate, "summary")


ABBREVIATION = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]")  # 'e.g', 'i.e': no sentence ends at their last dot


def terms_pattern(terms: Iterable[str]) -> re.Pattern[str] | None:
    """A pattern matching any of the terms as written (proper names), None for no terms."""
    listed = sorted(set(terms))
    return re.compile(r"\b(?:" + "|".join(re.escape(term) for term in listed) + r")") if listed else None


def other_families_terms(families: Collection[str], knowledge: KnowledgeBase) -> re.Pattern[str] | None:
    """A pattern matching the terms of every family but these (their own terms excepted): what a sentence said of
    these families alone must not name. None when no other family has terms."""
    own = {term for family in families for term in knowledge.platform(family).terms}
    return terms_pattern(
        term
        for platform in knowledge.platforms
        if platform.id not in families
        for term in platform.terms
        if term not in own
    )


def note_clauses(note: str) -> list[str]:
    """A note's clauses, each with its own ending: split after '; ' and after a sentence's '. ' (before a capital, not
    after an abbreviation), never inside brackets."""
    clauses, depth, start = [], 0, 0
    for index, char in enumerate(note):
        depth += (char in "([") - (char in ")]")
        after = note[index + 1 : index + 3]
        abbreviation = ABBREVIATION.fullmatch(note[:index].rsplit(" ", 1)[-1]) is not None
        ends = char == ";" or (char == "." and after[1:].isupper() and not abbreviation)
        if depth == 0 and ends and after.startswith(" "):
            clauses.append(note[start : index + 1])
            start = index + 2
    return [*clauses, note[start:]]


def note_for_family(note: str, family: str, knowledge: KnowledgeBase) -> str | None:
    """What a capability note says of this family: all of it where it names no other family's technology; where it
    does (it speaks family by family), only its clauses that name this family; None when none does ('stable on
    A100-class GPUs' is no reason on a phone, nor 'W4A8 INT8 on Arm CPUs' on Inferentia)."""
    foreign = other_families_terms((family,), knowledge)
    if foreign is None or not foreign.search(note):
        return note
    own = terms_pattern(knowledge.platform(family).terms)
    kept = [clause for clause in note_clauses(note) if own is not None and own.search(clause)]
    if not kept:
        return None
    text = " ".join(kept)
    return f"{text[:-1]}." if text.endswith(";") else text


def cite_platform(platform: Platform, path: str) -> Citation:
    """A platform claim ('<family>.dynamic_shapes', '<family>.official.gemm') with its value and source."""
    claim = platform.claims()[path]
    return Citation(kind="knowledge", ref=f"{platform.id}.{path}", figure=claim.text(), source=claim.source)


def cite_compatibility(relation: str, subject: str, claim: Claim[list[str]]) -> Citation:
    """A compatibility claim ('compatibility.attention_kernels.vllm') with the ids it lists and its source."""
    return Citation(
        kind="knowledge", ref=f"compatibility.{relation}.{subject}", figure=", ".join(claim.value), source=claim.source
    )


def cite_fact(fact: Fact) -> tuple[Citation, ...]:
    """One citation per case behind a fact, each carrying the fact's figure (and 'proxy' when off target)."""
    where = "" if fact.on_target else f" [proxy: measured on {fact.hardware or 'other hardware'}]"
    return tuple(Citation(kind="evidence", ref=case_id, figure=f"{fact.figure}{where}") for case_id in fact.case_ids)


def line(text: str, *cites: Citation | Iterable[Citation]) -> Rationale:
    """A rationale line from citations and groups of citations."""
    flat: list[Citation] = []
    for cite in cites:
        flat.extend([cite] if isinstance(cite, Citation) else cite)
    return Rationale(text=text, cites=tuple(flat))


def facts_line(text: str, *facts: Fact) -> Rationale:
    """A rationale line resting on facts, labelled as proxy evidence when any was measured elsewhere."""
    elsewhere = sorted({fact.hardware or "other hardware" for fact in facts if not fact.on_target})
    prefix = f"proxy evidence ({', '.join(elsewhere)}): " if elsewhere else ""
    return line(f"{prefix}{text}", *(cite_fact(fact) for fact in facts))


def fact_line(text: str, fact: Fact) -> Rationale:
    """A rationale line resting on one fact (see facts_line)."""
    return facts_line(text, fact)


def settled_figure(fact: Fact) -> str:
    """The fact's figure, with the CI and band its samples reached when it is a speedup over pairs of cases."""
    return fact.figure if fact.settlement is None else f"{fact.figure}; {fact.settlement.interval_text()}"


def unsettled_line(fact: Fact, probe: str, keeps: str, threshold: float = 1.0) -> Rationale | None:
    """The line for a speedup whose samples leave it the same as `threshold` or unsettled against it, ending with
    what the decision keeps instead; None when they settle it above or below (or it has no pairs behind it)."""
    settlement = fact.settlement
    side = settlement.side(threshold) if settlement is not None else None
    if settlement is None or side in ("above", "below"):
        return None
    if side == "same":
        text = (
            f"{fact.figure}: no difference from {threshold:g}x within the band ({settlement.interval_text()}): {keeps}"
        )
    else:
        text = f"{unsettled_text(fact.figure, settlement, probe, threshold)}; {keeps}"
    return fact_line(text, fact)


def proxy_speed_note(facts: EvidenceFacts, name: str) -> Rationale | None:
    """A speed figure from other hardware: reported, labelled, and not applied to the target."""
    fact = facts.unapplied_proxy(name)
    if fact is None:
        return None
    text = f"{fact.figure}; speed does not carry across hardware, so it is not applied to {facts.target}"
    return fact_line(text, fact)
