"""How old the knowledge is: claims past their age, `unknown` values, claims without a public URL.

`audit_knowledge` reads every claim of every candidate, platform and compatibility relation;
`claims_to_recheck` picks, for a yearly review, the stale or changed claims about a record's options.
Both are pure: the date is an argument, never the clock.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from advisor.knowledge.claims import Claim
from advisor.knowledge.models import Candidate, KnowledgeBase

DEFAULT_MAX_AGE_DAYS = 365
OwnerKind = Literal["candidate", "platform", "stack", "compatibility"]
Problem = Literal["stale", "unknown", "no-url", "changed"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ClaimFinding(_Model):
    """One claim that needs a look, and why."""

    owner: str = Field(description="Candidate id, platform id, or 'compatibility'")
    kind: OwnerKind
    field: str = Field(description="The claim's field path, e.g. fp8, official.gemm, feeds.atc-acl")
    problem: Problem
    as_of: dt.date
    source: str
    detail: str


class OwnerSummary(_Model):
    """The counts for one candidate, platform or the compatibility file."""

    owner: str
    kind: OwnerKind
    claims: int
    stale: int
    unknown: int
    no_url: int


class AuditReport(_Model):
    """Every finding of an audit, with per-owner counts."""

    as_of: dt.date
    max_age_days: int
    claims: int
    owners: list[OwnerSummary]
    findings: list[ClaimFinding]

    @property
    def stale(self) -> list[ClaimFinding]:
        """The claims older than the allowed age."""
        return [finding for finding in self.findings if finding.problem == "stale"]

    def summary(self) -> str:
        """One line of counts."""
        counts = {
            problem: sum(1 for f in self.findings if f.problem == problem) for problem in ("stale", "unknown", "no-url")
        }
        return (
            f"{self.claims} claims in {len(self.owners)} entries as of {self.as_of.isoformat()} (max age {self.max_age_days} days): "
            f"{counts['stale']} stale, {counts['unknown']} unknown, {counts['no-url']} without a public URL"
        )


def all_claims(knowledge: KnowledgeBase) -> Iterator[tuple[str, OwnerKind, str, Claim[Any]]]:
    """(owner, kind, field, claim) for every claim in the knowledge base."""
    for candidate in knowledge.candidates:
        for field, claim in candidate.claims().items():
            yield candidate.id, "candidate", field, claim
    for platform in knowledge.platforms:
        for field, claim in platform.claims().items():
            yield platform.id, "platform", field, claim
    for stack in knowledge.stacks:
        for field, claim in stack.claims().items():
            yield stack.id, "stack", field, claim
    for relation, entries in knowledge.compatibility.relations().items():
        for subject, claim in entries.items():
            yield "compatibility", "compatibility", f"{relation}.{subject}", claim


def claim_findings(
    owner: str, kind: OwnerKind, field: str, claim: Claim[Any], as_of: dt.date, max_age_days: int
) -> list[ClaimFinding]:
    """The audit's findings for one claim: stale, unknown, no URL (any of them, or none)."""
    found: list[tuple[Problem, str]] = []
    age = (as_of - claim.as_of).days
    if age > max_age_days:
        found.append(("stale", f"checked {age} days before {as_of.isoformat()} (more than {max_age_days})"))
    if claim.value == "unknown":
        found.append(("unknown", f"looked for: {claim.looked_for}"))
    if not claim.has_url:
        found.append(("no-url", "rests on the method page, not a vendor document"))
    return [
        ClaimFinding(
            owner=owner, kind=kind, field=field, problem=problem, as_of=claim.as_of, source=claim.source, detail=detail
        )
        for problem, detail in found
    ]


def audit_knowledge(knowledge: KnowledgeBase, as_of: dt.date, max_age_days: int = DEFAULT_MAX_AGE_DAYS) -> AuditReport:
    """Every stale claim, unknown value and claim without a URL, with counts per entry."""
    findings: list[ClaimFinding] = []
    counts: dict[tuple[str, OwnerKind], list[int]] = {}
    total = 0
    for owner, kind, field, claim in all_claims(knowledge):
        total += 1
        found = claim_findings(owner, kind, field, claim, as_of, max_age_days)
        findings += found
        row = counts.setdefault((owner, kind), [0, 0, 0, 0])
        row[0] += 1
        for index, problem in enumerate(("stale", "unknown", "no-url"), start=1):
            row[index] += sum(1 for finding in found if finding.problem == problem)
    owners = [
        OwnerSummary(owner=owner, kind=kind, claims=row[0], stale=row[1], unknown=row[2], no_url=row[3])
        for (owner, kind), row in counts.items()
    ]
    return AuditReport(as_of=as_of, max_age_days=max_age_days, claims=total, owners=owners, findings=findings)


def candidate_digest(candidate: Candidate) -> str:
    """A short fingerprint of what a candidate's claims say (values and notes, not dates or links)."""
    said = [f"{field}={claim.text()}|{claim.note or ''}" for field, claim in candidate.claims().items()]
    return hashlib.sha256("\n".join(said).encode("utf-8")).hexdigest()[:16]


def knowledge_snapshot(knowledge: KnowledgeBase, options: Iterable[str]) -> dict[str, str]:
    """Option id -> digest of its claims, for the options a record names that the knowledge base knows."""
    known = set(knowledge.ids())
    return {option: candidate_digest(knowledge.get(option)) for option in dict.fromkeys(options) if option in known}


def claims_to_recheck(
    knowledge: KnowledgeBase,
    options: Iterable[str],
    *,
    today: dt.date,
    decided: dt.date,
    snapshot: Mapping[str, str] | None = None,
    max_age_days: int = DEFAULT_MAX_AGE_DAYS,
) -> list[ClaimFinding]:
    """For a review: the claims about these options that are stale today, and those changed since the decision.

    A claim changed when the option's digest differs from the record's snapshot and the claim was
    re-checked after the decision date; without a snapshot (older records), every claim re-checked
    after the decision is listed as changed.
    """
    known = set(knowledge.ids())
    findings = []
    for option in dict.fromkeys(options):
        if option not in known:
            continue
        candidate = knowledge.get(option)
        moved = snapshot is None or snapshot.get(option) != candidate_digest(candidate)
        changed = []
        for field, claim in candidate.claims().items():
            stale = [
                f
                for f in claim_findings(option, "candidate", field, claim, today, max_age_days)
                if f.problem == "stale"
            ]
            findings += stale
            if moved and claim.as_of > decided:
                detail = (
                    f"re-checked {claim.as_of.isoformat()}, after the decision of {decided.isoformat()}: {claim.text()}"
                )
                changed.append(
                    ClaimFinding(
                        owner=option,
                        kind="candidate",
                        field=field,
                        problem="changed",
                        as_of=claim.as_of,
                        source=claim.source,
                        detail=detail,
                    )
                )
        if moved and snapshot is not None and not changed:
            detail = "its claims differ from the record's snapshot, though none is dated after the decision"
            changed.append(
                ClaimFinding(
                    owner=option,
                    kind="candidate",
                    field="*",
                    problem="changed",
                    as_of=decided,
                    source=candidate.summary.source,
                    detail=detail,
                )
            )
        findings += changed
    return findings
