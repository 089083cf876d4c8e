"""`advisor review`: re-probe decision records, diff them against their evidence, keep or revise them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from advisor.cli.options import RecordsDir


def review_command(
    ids: Annotated[Optional[list[int]], typer.Argument(help="Numbers of the records to review.", show_default=False)] = None,
    due: Annotated[bool, typer.Option("--due", help="Review the records whose review_by has passed; list those due within 30 days.")] = False,
    budget: Annotated[Optional[float], typer.Option("--budget", help="Wall-clock seconds for re-probing each record (default: the record's own budget).")] = None,
    evidence: Annotated[Optional[Path], typer.Option("--evidence", help="Use this fresh evidence file instead of re-probing.")] = None,
    records_dir: RecordsDir = Path("records"),
    no_commit: Annotated[bool, typer.Option("--no-commit", help="Write the review but do not commit it.")] = False,
    today: Annotated[Optional[str], typer.Option("--today", help="Review as of this date, YYYY-MM-DD (default: today).")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print each review's outcome as JSON.")] = False,
) -> None:
    """Re-probe records, compare with their evidence, check their switch conditions, then keep or revise each."""
    from advisor.dates import parse_date
    from advisor.review.batch import review_records
    from probes.models import Evidence

    fresh = Evidence.load(evidence) if evidence is not None else None
    batch = review_records(records_dir, ids, due=due, today=parse_date(today, "--today"), budget_s=budget,
                           new_evidence=fresh, commit=not no_commit)  # fmt: skip
    if json_output:
        typer.echo(json.dumps(batch.as_json(), indent=2))
        return
    results, upcoming, day = batch.results, batch.upcoming, batch.today
    if not results:
        typer.echo(f"no record is due for review on {day.isoformat()}")
    for result in results:
        typer.echo(f"{result.outcome.record_id:04d} {result.outcome.summary()}")
        for finding in result.outcome.knowledge:
            typer.echo(f"  knowledge: {finding.owner}.{finding.field} {finding.problem}: {finding.detail} ({finding.source})")
        if result.new_record:
            typer.echo(f"  new record: {result.new_record}")
        typer.echo(f"  evidence: {result.evidence}")
        if result.commit:
            typer.echo(f"  committed {result.commit[:12]}")
        for note in result.notes:
            typer.echo(f"  {note}")
    for record in upcoming:
        typer.echo(f"upcoming: {record.id:04d} review by {record.front.review_by.isoformat()}")
