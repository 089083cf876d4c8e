"""`advisor records`: list, show, history, accept and supersede decision records; `init` a git repository."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from advisor.cli.group import APP_SETTINGS, CommandApp
from advisor.cli.options import JsonFlag, RecordsDir
from advisor.cli.output import reports_errors, warn
from probes.terminal_text import one_line

app = CommandApp(help="The decision records: list, show, history, accept, supersede.", **APP_SETTINGS)

NoCommit = Annotated[bool, typer.Option("--no-commit", help="Change the files but do not commit them.")]


def _commit(records_dir: Path, paths: list[Path], message: str, no_commit: bool) -> str | None:
    """Commit the changed records; the line saying so (printed once the whole change stands), None with --no-commit."""
    from advisor.records.git import commit_paths
    from advisor.records.paths import open_repository

    if no_commit:
        return None
    with open_repository(records_dir) as repo:
        if repo is None:
            return f"{records_dir} is not in a git repository: not committed (`advisor records init` creates one)"
        sha = commit_paths(repo, paths, message)
    return f"committed {sha[:12]}: {one_line(message)}"


@app.command("init", short_help="Create the records folder and its git repository.")
@reports_errors
def init_command(records_dir: RecordsDir = Path("records")) -> None:
    """Create the records folder and a git repository for it when it is in none."""
    from advisor.records.git import init_repository
    from advisor.records.paths import open_repository

    with open_repository(records_dir) as repo:
        if repo is not None:
            typer.echo(f"{records_dir} is already in the git repository at {repo.working_tree_dir}")
            return
    init_repository(records_dir).close()
    typer.echo(f"initialised a git repository in {records_dir}")


@app.command("list", short_help="List the records: id, status, dates, title, tier 1.")
@reports_errors
def list_command(records_dir: RecordsDir = Path("records"), json_output: JsonFlag = False) -> None:
    """Every record: id, status, date, review date, title, tier-1 options, cut to the terminal's width (--json
    gives them whole); malformed files and broken supersede links are warnings."""
    from advisor.records import load_records
    from advisor.records.git import uncommitted_paths
    from advisor.records.paths import open_repository
    from advisor.records.store import link_problems

    records, problems = load_records(records_dir)
    links = link_problems(records, problems)
    in_git, pending = False, set()
    if records:
        with open_repository(records_dir) as repo:
            in_git = repo is not None
            pending = uncommitted_paths(repo, [r.path for r in records]) if repo is not None else set()
    rows = [
        {
            "id": r.id,
            "title": r.front.title,
            "status": r.front.status,
            "date": r.front.date.isoformat(),
            "review_by": r.front.review_by.isoformat(),
            "tier1": r.front.tier1,
            "file": str(r.path),
            "committed": in_git and r.path not in pending,
        }
        for r in records
    ]
    if json_output:
        typer.echo(
            json.dumps(
                {"records": rows, "problems": [str(p) for p in problems], "link_problems": [str(p) for p in links]},
                indent=2,
            )
        )
    else:
        import shutil

        from advisor.cli.record_lines import RecordLine, record_lines

        lines = [RecordLine.of(r, committed=not in_git or r.path not in pending) for r in records]
        for line in record_lines(lines, shutil.get_terminal_size().columns):
            typer.echo(line)
        if not rows and not problems:
            typer.echo(f"no records in {records_dir}")
    for problem in [*problems, *links]:
        warn(str(problem))


@app.command("show", short_help="Print a record's Markdown.")
@reports_errors
def show_command(
    record_id: Annotated[int, typer.Argument(metavar="ID", help="The record number.")],
    records_dir: RecordsDir = Path("records"),
) -> None:
    """Print a record's Markdown (front matter included)."""
    from advisor.records import find_record
    from advisor.records.store import read_record_text

    typer.echo(read_record_text(find_record(records_dir, record_id).path), nl=False)


@app.command("history", short_help="A record's versions from git log.")
@reports_errors
def history_command(
    record_id: Annotated[int, typer.Argument(metavar="ID", help="The record number.")],
    records_dir: RecordsDir = Path("records"),
    json_output: JsonFlag = False,
) -> None:
    """The versions of a record from git log: date, version, message."""
    from advisor.records import find_record
    from advisor.records.history import record_history
    from advisor.records.paths import open_repository
    from probes.errors import AdvisorError

    record = find_record(records_dir, record_id)
    with open_repository(records_dir) as repo:
        if repo is None:
            raise AdvisorError(f"{records_dir} is not in a git repository: no history")
        versions = record_history(repo, record.path)
    if json_output:
        typer.echo(
            json.dumps(
                [
                    {"sha": v.sha, "date": v.date.isoformat(), "version": v.version, "message": v.message}
                    for v in versions
                ],
                indent=2,
            )
        )
        return
    for version in versions:
        shown = f"v{version.version}" if version.version is not None else "v?"
        typer.echo(f"{version.date.isoformat()}  {shown:<4} {version.sha[:12]}  {one_line(version.message)}")


@app.command("accept", short_help="Mark a proposed record accepted and commit it.")
@reports_errors
def accept_command(
    record_id: Annotated[int, typer.Argument(metavar="ID", help="The record number.")],
    records_dir: RecordsDir = Path("records"),
    no_commit: NoCommit = False,
) -> None:
    """Mark a proposed record accepted (version bumped) and commit it."""
    from advisor.records import accept, find_record
    from advisor.records.store import put_back_on_failure

    with put_back_on_failure([find_record(records_dir, record_id).path]):  # a refused commit leaves no half change
        record = accept(records_dir, record_id)
        message = f"decision {record.id:04d}: accepted: {record.front.title} (v{record.front.version})"
        committed = _commit(records_dir, [record.path], message, no_commit)
    typer.echo(f"{record.path.name}: accepted (v{record.front.version})")
    if committed:
        typer.echo(committed)


@app.command("supersede", short_help="Mark OLD superseded by NEW and commit both.")
@reports_errors
def supersede_command(
    old: Annotated[int, typer.Argument(metavar="OLD", help="The record being replaced.")],
    new: Annotated[int, typer.Argument(metavar="NEW", help="The record replacing it.")],
    records_dir: RecordsDir = Path("records"),
    no_commit: NoCommit = False,
) -> None:
    """Link NEW as superseding OLD both ways, mark OLD superseded (versions bumped) and commit both."""
    from advisor.records import find_record, supersede
    from advisor.records.store import put_back_on_failure

    with put_back_on_failure({find_record(records_dir, number).path for number in (old, new)}):
        old_record, new_record = supersede(records_dir, old, new)
        message = f"decision {old:04d}: superseded by {new:04d} (v{old_record.front.version})"
        committed = _commit(records_dir, [old_record.path, new_record.path], message, no_commit)
    typer.echo(f"{old_record.path.name}: superseded by {new:04d} (v{old_record.front.version})")
    if committed:
        typer.echo(committed)
