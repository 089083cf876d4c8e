"""`advisor review`: re-probe decision records, diff them against their evidence, keep or revise them."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from advisor.cli.options import RecordsDir
from advisor.cli.output import fail, warn

if TYPE_CHECKING:
    from advisor.review.batch import ReviewBatch
from probes.terminal_text import one_line


def review_command(
    ids: Annotated[
        Optional[list[int]], typer.Argument(metavar="ID", help="Numbers of the records to review.", show_default=False)
    ] = None,
    due: Annotated[
        bool,
        typer.Option("--due", help="Review the records whose review_by has passed; list those due within 30 days."),
    ] = False,
    budget: Annotated[
        Optional[float],
        typer.Option(
            "--budget",
            metavar="SECONDS",
            help="Wall-clock seconds for re-probing each record (default: the record's own budget).",
        ),
    ] = None,
    evidence: Annotated[
        Optional[Path],
        typer.Option("--evidence", metavar="FILE", help="Use this fresh evidence file instead of re-probing."),
    ] = None,
    records_dir: RecordsDir = Path("records"),
    no_commit: Annotated[bool, typer.Option("--no-commit", help="Write the review but do not commit it.")] = False,
    today: Annotated[
        Optional[str],
        typer.Option("--today", metavar="DATE", help="Review as of this date, YYYY-MM-DD (default: today)."),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print each review's outcome as JSON.")] = False,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="With --due: probe nothing, write nothing; list the overdue records and exit 1 if there are any (a CI gate).",
        ),
    ] = False,
) -> None:
    """Re-probe records, compare with their evidence, check their switch conditions, then keep or revise each."""
    from advisor.cli.evidence_files import load_evidence
    from advisor.dates import parse_date
    from advisor.review.batch import review_records

    if check:
        _check_due(records_dir, due, ids, parse_date(today, "--today"), json_output)
        return

    fresh = load_evidence(evidence) if evidence is not None else None
    batch = review_records(
        records_dir,
        ids,
        due=due,
        today=parse_date(today, "--today"),
        budget_s=budget,
        new_evidence=fresh,
        commit=not no_commit,
    )
    for problem in batch.problems:
        warn(f"{problem} (not reviewed: its review date is unknown)")
    for failure in batch.failures:
        warn(str(failure))
    if json_output:
        typer.echo(json.dumps(batch.as_json(), indent=2))
    else:
        _print_batch(batch)
    if batch.failures:
        fail(
            f"{len(batch.failures)} of {len(batch.failures) + len(batch.results)} reviews failed (see the warnings "
            "above); the others are done",
            batch.failures[0].exit_code,
        )


def _print_batch(batch: ReviewBatch) -> None:
    """The reviews done, one block each, and the records due soon."""
    results, upcoming, day = batch.results, batch.upcoming, batch.today
    if not results and not batch.failures:
        typer.echo(f"no record is due for review on {day.isoformat()}")
    for result in results:
        typer.echo(f"{result.outcome.record_id:04d} {one_line(result.outcome.summary())}")
        for verdict in result.outcome.probes:
            typer.echo(f"  per probe: {one_line(verdict.line())}")
        for finding in result.outcome.knowledge:
            typer.echo(
                f"  knowledge: {finding.owner}.{finding.field} {finding.problem}: {finding.detail} ({finding.source})"
            )
        if result.new_record:
            typer.echo(f"  new record: {result.new_record}")
        typer.echo(f"  evidence: {result.evidence}")
        if result.commit:
            typer.echo(f"  committed {result.commit[:12]}")
        for note in result.notes:
            typer.echo(f"  {one_line(note)}")
    for record in upcoming:
        typer.echo(f"upcoming: {record.id:04d} review by {record.front.review_by.isoformat()}")


def _check_due(records_dir: Path, due: bool, ids: Optional[list[int]], today: dt.date, json_output: bool) -> None:
    """`--due --check`: list overdue (and soon due) records; exit 1 when any is overdue."""
    from advisor.review.batch import check_due
    from probes.errors import AdvisorError

    if not due or ids:
        raise AdvisorError("--check goes with --due and no record numbers: it checks which records are overdue")
    result = check_due(records_dir, today)
    for problem in result.problems:
        warn(f"{problem} (its review date is unknown, so the check fails)")
    if json_output:
        typer.echo(json.dumps(result.as_json(), indent=2))
    else:
        for record in result.overdue:
            typer.echo(
                f"overdue: {record.id:04d} {one_line(record.front.title)} (review by {record.front.review_by.isoformat()}) {record.path}"
            )
        for record in result.upcoming:
            typer.echo(
                f"upcoming: {record.id:04d} {one_line(record.front.title)} (review by {record.front.review_by.isoformat()})"
            )
        count = len(result.overdue)
        typer.echo(
            f"{count} record(s) overdue for review on {result.today.isoformat()}: run `advisor review --due` on the target hardware"
            if count
            else f"no record is overdue for review on {result.today.isoformat()}"
        )
        if result.problems:
            typer.echo(
                f"{len(result.problems)} record file(s) do not read (see the warnings): fix them, or move them out of {records_dir}"
            )
    if not result.passed:
        raise typer.Exit(1)
