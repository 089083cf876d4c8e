"""A decision record as pydantic models (no I/O here): the YAML front matter and the Markdown body.

The front matter keys are a public contract read by ADR tooling (MADR) and by `advisor records`:
add keys, never rename them; a change old readers cannot ignore bumps RECORD_SCHEMA_VERSION.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator

from probes.errors import AdvisorError
from probes.files.safe_yaml import scalar_text

RECORD_SCHEMA_VERSION = 1

RecordStatus = Literal["proposed", "accepted", "rejected", "deprecated", "superseded"]
RECORD_STATUSES: tuple[str, ...] = get_args(RecordStatus)
LIVE_STATUSES: tuple[str, ...] = ("proposed", "accepted")  # in force, so reviewed every year
# Records are NNNN-slug.md: four digits keep every file name the same width, so names sort by number.
MAX_RECORD_ID = 9999
RecordId = Annotated[int, Field(ge=1, le=MAX_RECORD_ID)]


class RecordError(AdvisorError):
    """A record that cannot be read, found or changed; the message names the file and the problem."""


class EnvironmentSummary(BaseModel):
    """Where the evidence was measured: hardware and the versions of the stack that ran it."""

    model_config = ConfigDict(extra="allow")  # a newer advisor's added keys are kept, as in the front matter

    hardware: str | None = Field(default=None, description="Hardware family, e.g. x86-cpu or nvidia-gpu")
    device: str | None = Field(default=None, description="Device or CPU model name")
    driver: str | None = None
    torch: str | None = None
    cuda: str | None = None
    cudnn: str | None = None
    cann: str | None = None
    triton: str | None = None


class EvidenceRef(BaseModel):
    """An evidence file beside the record, pinned by its sha256."""

    model_config = ConfigDict(extra="forbid")

    file: str = Field(
        pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$",
        description="File name in the record's folder: letters, digits, '.', '_' and '-' (no path, no markup)",
    )
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class RecordFrontMatter(BaseModel):
    """The YAML front matter of a record (MADR keys plus advisor's own)."""

    # Keys added by a newer advisor of the same schema_version are kept and written back; a newer
    # schema_version is refused (see _readable_version).
    model_config = ConfigDict(extra="allow", populate_by_name=True)

    id: RecordId
    title: str = Field(min_length=1)
    status: RecordStatus = "proposed"
    date: dt.date
    version: int = Field(default=1, ge=1)
    review_by: dt.date
    decision_makers: list[str] = Field(default_factory=list, alias="decision-makers")
    supersedes: list[RecordId] = Field(default_factory=list)
    superseded_by: list[RecordId] = Field(default_factory=list, description="Several successors are allowed")
    profile: dict[str, Any]
    environment: EnvironmentSummary = EnvironmentSummary()
    evidence: list[EvidenceRef] = Field(default_factory=list)
    tier1: list[str] = Field(default_factory=list, description="Option ids chosen in tier 1")
    tier2: list[str] = Field(default_factory=list, description="Option ids chosen in tier 2 (deep self-development)")
    tier3: list[str] = Field(default_factory=list, description="Option ids chosen in tier 3 (multi-platform)")
    rejected: list[str] = Field(default_factory=list, description="Option ids rejected outright")
    confidence: float | None = Field(
        default=None, ge=0.0, le=1.0, description="The recommendation's confidence when the record was written"
    )
    knowledge: dict[str, str] = Field(
        default_factory=dict,
        description="Option id -> digest of its knowledge-base claims when the record was written (reviews spot changes)",
    )
    schema_version: StrictInt = Field(default=RECORD_SCHEMA_VERSION, ge=1)

    @field_validator("title", mode="before")
    @classmethod
    def _title_as_written(cls, title: object) -> object:
        return scalar_text(title)  # a hand-edited `title: 2026-01-02` is text the dumper would have quoted

    @field_validator("schema_version")
    @classmethod
    def _readable_version(cls, version: int) -> int:
        if version > RECORD_SCHEMA_VERSION:
            raise ValueError(f"{version} is newer than this advisor reads ({RECORD_SCHEMA_VERSION}); upgrade advisor")
        return version

    def as_yaml_data(self) -> dict[str, Any]:
        """The front matter as plain data in the documented key order (dates stay dates)."""
        return self.model_dump(mode="python", by_alias=True)


class DecisionRecord(BaseModel):
    """One record on disk: its front matter, its file and the Markdown after the front matter."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    front: RecordFrontMatter
    path: Path
    body: str

    @property
    def id(self) -> int:
        """The record's number."""
        return self.front.id


class RecordProblem(BaseModel):
    """A record file that could not be read, and why (the others still load)."""

    path: Path
    problem: str

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}"


def early_review_date(decided: dt.date) -> dt.date:
    """Six months after the decision (a day the month lacks moves to the 28th)."""
    month = decided.month + 6
    year, month = decided.year + (month - 1) // 12, (month - 1) % 12 + 1
    try:
        return decided.replace(year=year, month=month)
    except ValueError:
        return decided.replace(year=year, month=month, day=28)


def review_date(decided: dt.date) -> dt.date:
    """A year after the decision (29 February moves to 28 February)."""
    try:
        return decided.replace(year=decided.year + 1)
    except ValueError:
        return decided.replace(year=decided.year + 1, day=28)
