"""What a review finds: one pydantic model per thing reported, no I/O here."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from advisor.comparison.models import ControlDifference, ProbeVerdict, Verdict
from advisor.knowledge.audit import ClaimFinding

ReviewVerdict = Literal["keep", "revise"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class VersionChange(_Model):
    """One field of the record's environment summary that differs now."""

    name: str
    before: str | None
    after: str | None


class CaseDelta(_Model):
    """A re-run case whose speed, status or accuracy changed significantly."""

    case_id: str
    verdict: Verdict
    ratio: float | None = Field(default=None, description="New median / old median; below 1 is faster")
    detail: str


class Capability(_Model):
    """Something this machine offers now that the record's environment did not."""

    kind: Literal["sdpa-backend", "quantized-engine", "dtype", "compile", "isa", "library"]
    name: str


class UpgradeCost(_Model):
    """What re-testing cost: cases re-run, how they went, and the time spent."""

    cases: int
    failed: int
    skipped: int
    unmatched_old: int = Field(description="Cases of the record's evidence that the re-run did not measure")
    wall_s: float
    incidents: list[str] = Field(default_factory=list)


class ConditionCheck(_Model):
    """One switch condition of the record, checked against the old and the new evidence."""

    id: str
    description: str
    before: bool | None
    after: bool | None

    @property
    def fired(self) -> bool:
        """It holds now and did not hold when the decision was made."""
        return self.after is True and self.before is not True


class ReviewOutcome(_Model):
    """The review of one record: keep or revise, why, and the answers to the three yearly questions."""

    record_id: int
    date: dt.date
    verdict: ReviewVerdict
    reasons: list[str]
    environment_changes: list[VersionChange]
    controls: list[ControlDifference] = Field(description="Every control variable that differs between the runs")
    improved: list[CaseDelta] = Field(description="Question 1: cases significantly faster, fixed or more accurate")
    regressed: list[CaseDelta] = Field(
        description="Question 1: cases significantly slower, newly failing or less accurate"
    )
    capabilities: list[Capability] = Field(description="Question 2: new capabilities available now")
    cost: UpgradeCost = Field(description="Question 3: what the re-test cost")
    conditions: list[ConditionCheck]
    tier1_before: list[str]
    tier1_after: list[str]
    probes: list[ProbeVerdict] = Field(
        default_factory=list, description="Per probe: its cases' geometric mean B/A and its verdict"
    )
    knowledge: list[ClaimFinding] = Field(
        default_factory=list,
        description="Knowledge-base claims about the record's chosen and rejected options that are stale or changed",
    )

    @property
    def fired(self) -> list[ConditionCheck]:
        """The switch conditions that fired."""
        return [condition for condition in self.conditions if condition.fired]

    def summary(self) -> str:
        """One line: the verdict, its reasons and the key counts."""
        return (
            f"{self.verdict}: {'; '.join(self.reasons)}; {len(self.improved)} improved, {len(self.regressed)} regressed, "
            f"{len(self.capabilities)} new capabilities, {self.cost.cases} cases re-run ({self.cost.failed} failed) "
            f"in {self.cost.wall_s:.0f} s, {len(self.knowledge)} knowledge-base claims to re-check"
        )
