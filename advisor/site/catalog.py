"""What the site shows, read from the records folder: each record, its evidence, git history and review state.

Nothing here writes. A record that does not read, or whose evidence file is missing, damaged or
not the file its sha256 pins, becomes a `SiteProblem` naming the file; the rest of the site still builds.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal

from advisor.records.git import RecordVersion
from advisor.records.history import record_histories
from advisor.records.models import LIVE_STATUSES, DecisionRecord
from advisor.records.paths import open_repository
from advisor.records.store import link_problems, load_records
from probes.files.bounded_read import read_bounded
from probes.models import EVIDENCE_FILE, Evidence, EvidenceSchemaError

ReviewState = Literal["overdue", "due-soon", "scheduled", "closed"]
DUE_SOON_DAYS = 60


@dataclass(frozen=True)
class SiteProblem:
    """A file the site could not use, and why."""

    path: Path
    problem: str
    skipped: bool = True  # False: the file is shown, but something in it is wrong (a broken supersede link)

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}"


@dataclass(frozen=True)
class EvidenceFile:
    """One evidence file of a record: where it is and, when it reads and matches its sha256, its content."""

    name: str
    path: Path
    size_bytes: int
    sha256: str
    evidence: Evidence | None


@dataclass(frozen=True)
class SiteRecord:
    """One record as the site shows it."""

    record: DecisionRecord
    slug: str  # the record file's stem, e.g. 0001-cpu-serving-stack
    evidence: list[EvidenceFile]
    history: list[RecordVersion]
    in_git: bool
    review_state: ReviewState
    days_to_review: int

    @property
    def page(self) -> str:
        """Path of its page inside the site's docs."""
        return f"decisions/{self.slug}.md"


@dataclass(frozen=True)
class Catalog:
    """Every record that reads, newest first, and every problem met on the way."""

    records: list[SiteRecord]
    problems: list[SiteProblem]
    today: dt.date

    @cached_property
    def by_id(self) -> dict[int, SiteRecord]:
        """Records by number (computed once: every record page looks its links up here)."""
        return {item.record.id: item for item in self.records}


def review_state(record: DecisionRecord, today: dt.date) -> tuple[ReviewState, int]:
    """Whether the yearly review is overdue, due within DUE_SOON_DAYS, scheduled, or moot (a closed record)."""
    days = (record.front.review_by - today).days
    if record.front.status not in LIVE_STATUSES:
        return "closed", days
    if days < 0:
        return "overdue", days
    return ("due-soon" if days <= DUE_SOON_DAYS else "scheduled"), days


def read_evidence_files(record: DecisionRecord, parsed: dict[str, Evidence] | None = None) -> tuple[list[EvidenceFile], list[SiteProblem]]:
    """The record's evidence files that exist; a problem for each that is missing, damaged or altered.

    `parsed` holds the evidence already read, by sha256: records that share evidence (the same bytes,
    each under its record's own file name) have it parsed once; it gains what this record's files add."""
    parsed = {} if parsed is None else parsed
    files, problems = [], []
    for ref in record.front.evidence:
        path = record.path.parent / ref.file
        try:
            data = read_bounded(path, EVIDENCE_FILE)
        except EvidenceSchemaError as error:  # missing, not a regular file, too large: the message names the file
            problem = str(error).removeprefix(f"{path}: ")
            problems.append(SiteProblem(path, f"evidence of record {record.id:04d} cannot be read ({problem})"))
            continue
        if hashlib.sha256(data).hexdigest() != ref.sha256:
            problems.append(SiteProblem(path, f"sha256 differs from the one record {record.id:04d} pins; not shown"))
            continue
        evidence: Evidence | None = parsed.get(ref.sha256)
        if evidence is None:
            try:
                evidence = parsed[ref.sha256] = Evidence.parse(data, str(path))
            except EvidenceSchemaError as error:  # not kept: the message names this file
                problems.append(SiteProblem(path, f"not valid evidence ({str(error).splitlines()[0]}); charts skipped"))
        files.append(EvidenceFile(name=ref.file, path=path, size_bytes=len(data), sha256=ref.sha256, evidence=evidence))
    return files, problems


def build_catalog(records_dir: Path, today: dt.date) -> Catalog:
    """Read every record, its evidence and its git history; newest decision first."""
    records, record_problems = load_records(records_dir)
    problems = [SiteProblem(problem.path, problem.problem) for problem in record_problems]
    problems += [SiteProblem(link.path, link.problem, skipped=False) for link in link_problems(records, record_problems)]
    in_git = False
    history: dict[Path, list[RecordVersion]] = {}
    if records:
        with open_repository(records_dir) as repo:
            in_git = repo is not None
            history = record_histories(repo, [record.path for record in records]) if repo is not None else {}
    parsed: dict[str, Evidence] = {}
    items = []
    for record in records:
        evidence, evidence_problems = read_evidence_files(record, parsed)
        problems.extend(evidence_problems)
        state, days = review_state(record, today)
        items.append(SiteRecord(
            record=record, slug=record.path.stem, evidence=evidence, history=history.get(record.path, []),
            in_git=in_git, review_state=state, days_to_review=days,
        ))
    items.sort(key=lambda item: (item.record.front.date, item.record.id), reverse=True)
    return Catalog(records=items, problems=problems, today=today)
