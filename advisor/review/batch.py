"""`review_records`: which records a review run takes (named ones, those due) and the run over them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from advisor.records.models import DecisionRecord, RecordProblem
from advisor.review.run import ReviewResult, due_records, run_review
from probes.errors import AdvisorError
from probes.models import Evidence
from probes.runner import check_budget


@dataclass(frozen=True)
class ReviewFailure:
    """A review of a batch that could not be done (its evidence does not read, the disk is full...)."""

    record_id: int
    message: str
    exit_code: int

    def __str__(self) -> str:
        return f"review of {self.record_id:04d} failed: {self.message}"


@dataclass(frozen=True)
class ReviewBatch:
    """The reviews of one run, and the live records whose review falls due soon (listed, not reviewed)."""

    today: dt.date
    results: list[ReviewResult] = field(default_factory=list)
    upcoming: list[DecisionRecord] = field(default_factory=list)
    problems: list[RecordProblem] = field(default_factory=list)  # with --due: record files that did not read
    failures: list[ReviewFailure] = field(default_factory=list)  # of several reviews, those that failed

    def as_json(self) -> dict[str, object]:
        """The `advisor review --json` document."""
        return {
            "reviews": [result.as_json() for result in self.results],
            "upcoming": [
                {"id": record.id, "review_by": record.front.review_by.isoformat()} for record in self.upcoming
            ],
            "problems": [str(problem) for problem in self.problems],
            "failures": [{"id": failure.record_id, "error": failure.message} for failure in self.failures],
        }


def records_to_review(
    records_dir: Path, ids: list[int], *, due: bool, today: dt.date
) -> tuple[list[int], list[DecisionRecord], list[RecordProblem]]:
    """The record numbers to review (the named ones, then those due when `due`), the upcoming records and
    the record files that did not read (so whether they are due is unknown)."""
    numbers = list(dict.fromkeys(ids))
    if not due:
        if not numbers:
            raise AdvisorError("name the records to review, or pass --due")
        return numbers, [], []
    found = due_records(records_dir, today)
    return numbers + [record.id for record in found.due if record.id not in numbers], found.upcoming, found.problems


@dataclass(frozen=True)
class DueCheck:
    """`advisor review --due --check`: the live records past their review date, and those due soon."""

    today: dt.date
    overdue: list[DecisionRecord]
    upcoming: list[DecisionRecord]
    problems: list[RecordProblem] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """No record is overdue, and every record file read (one that does not may be overdue)."""
        return not self.overdue and not self.problems

    def as_json(self) -> dict[str, object]:
        """The `--json` document of the check."""

        def listed(records: list[DecisionRecord]) -> list[dict[str, object]]:
            return [
                {
                    "id": record.id,
                    "title": record.front.title,
                    "review_by": record.front.review_by.isoformat(),
                    "path": str(record.path),
                }
                for record in records
            ]

        return {
            "today": self.today.isoformat(),
            "passed": self.passed,
            "overdue": listed(self.overdue),
            "upcoming": listed(self.upcoming),
            "problems": [str(problem) for problem in self.problems],
        }


def check_due(records_dir: Path, today: dt.date | None = None) -> DueCheck:
    """Which live records are overdue for their yearly review (no probing, nothing written): a CI gate."""
    day = today or dt.date.today()
    found = due_records(records_dir, day)
    return DueCheck(day, found.due, found.upcoming, found.problems)


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
    """Review the named records (and with `due`, every live record past its review date), one after another.

    Of several reviews, one that fails is kept as a ReviewFailure and the others still run; a single review
    raises its error."""
    if budget_s is not None:
        check_budget(budget_s, "--budget")
    day = today or dt.date.today()
    numbers, upcoming, problems = records_to_review(records_dir, list(ids or []), due=due, today=day)
    results, failures = [], []
    for number in numbers:
        try:
            results.append(
                run_review(records_dir, number, today=day, budget_s=budget_s, new_evidence=new_evidence, commit=commit)
            )
        except AdvisorError as error:
            if len(numbers) == 1:
                raise
            failures.append(ReviewFailure(number, str(error), error.exit_code))
    return ReviewBatch(day, results, upcoming, problems, failures)
