"""`review_records`: which records a review run takes (named ones, those due) and the run over them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from advisor.errors import AdvisorError
from advisor.records.models import DecisionRecord
from advisor.review.run import ReviewResult, due_records, run_review
from probes.models import Evidence


@dataclass(frozen=True)
class ReviewBatch:
    """The reviews of one run, and the live records whose review falls due soon (listed, not reviewed)."""

    today: dt.date
    results: list[ReviewResult] = field(default_factory=list)
    upcoming: list[DecisionRecord] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        """The `advisor review --json` document."""
        return {"reviews": [result.as_json() for result in self.results],
                "upcoming": [{"id": record.id, "review_by": record.front.review_by.isoformat()} for record in self.upcoming]}  # fmt: skip


def records_to_review(records_dir: Path, ids: list[int], *, due: bool, today: dt.date) -> tuple[list[int], list[DecisionRecord]]:
    """The record numbers to review (the named ones, then those due when `due`) and the upcoming records."""
    numbers = list(dict.fromkeys(ids))
    if not due:
        if not numbers:
            raise AdvisorError("name the records to review, or pass --due")
        return numbers, []
    due_now, upcoming = due_records(records_dir, today)
    return numbers + [record.id for record in due_now if record.id not in numbers], upcoming


@dataclass(frozen=True)
class DueCheck:
    """`advisor review --due --check`: the live records past their review date, and those due soon."""

    today: dt.date
    overdue: list[DecisionRecord]
    upcoming: list[DecisionRecord]

    @property
    def passed(self) -> bool:
        """No record is overdue."""
        return not self.overdue

    def as_json(self) -> dict[str, object]:
        """The `--json` document of the check."""

        def listed(records: list[DecisionRecord]) -> list[dict[str, object]]:
            return [{"id": record.id, "title": record.front.title, "review_by": record.front.review_by.isoformat(),
                     "path": str(record.path)} for record in records]  # fmt: skip

        return {"today": self.today.isoformat(), "passed": self.passed, "overdue": listed(self.overdue),
                "upcoming": listed(self.upcoming)}  # fmt: skip


def check_due(records_dir: Path, today: dt.date | None = None) -> DueCheck:
    """Which live records are overdue for their yearly review (no probing, nothing written): a CI gate."""
    day = today or dt.date.today()
    overdue, upcoming = due_records(records_dir, day)
    return DueCheck(day, overdue, upcoming)


def review_records(
    records_dir: Path,
    ids: list[int] | None = None,
    *,
    due: bool = False,
    today: dt.date | None = None,
    budget_s: float | None = None,
    new_evidence: Evidence | None = None,
    commit: bool = True,
) -> ReviewBatch:
    """Review the named records (and with `due`, every live record past its review date), one after another."""
    if budget_s is not None and not budget_s > 0:
        raise AdvisorError(f"--budget must be a positive number of seconds, got {budget_s}")
    day = today or dt.date.today()
    numbers, upcoming = records_to_review(records_dir, list(ids or []), due=due, today=day)
    results = [run_review(records_dir, number, today=day, budget_s=budget_s, new_evidence=new_evidence, commit=commit)
               for number in numbers]  # fmt: skip
    return ReviewBatch(day, results, upcoming)
