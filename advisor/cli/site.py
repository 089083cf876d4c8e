"""`advisor site`: build the decision-record website (MkDocs Material) or preview it with live reload."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from advisor.cli.group import APP_SETTINGS, CommandApp
from advisor.cli.options import JsonFlag, folder_path, project_settings, setting_default, site_records_folder
from advisor.cli.output import reports_errors, warn

app = CommandApp(help="The decision-record website: build it, or preview it with live reload.", **APP_SETTINGS)

ConfigFile = Annotated[
    Optional[Path],
    typer.Option(
        "--config",
        metavar="FILE",
        help="The MkDocs configuration (default: mkdocs.yml at the project root, else advisor's own settings).",
    ),
]
RecordsDirOption = Annotated[
    Optional[Path],
    typer.Option(
        "--records-dir",
        metavar="DIR",
        callback=site_records_folder,
        parser=folder_path,
        help="Folder of the decision records (default: records_dir of the project settings, else extra.advisor.records_dir in the config, else records/).",
    ),
]
TodayOption = Annotated[
    Optional[str],
    typer.Option(
        "--today", metavar="DATE", help="Judge reviews overdue or due as of this date, YYYY-MM-DD (default: today)."
    ),
]


@app.command("build", short_help="Build the static site from the records.")
@reports_errors
def build_command(
    out: Annotated[
        Optional[Path],
        typer.Option(
            "--out",
            metavar="DIR",
            callback=setting_default("site_dir"),
            help="Folder to write the site to (default: site_dir of the project settings, else site_dir of the config, else site-build/ at the project root).",
        ),
    ] = None,
    strict: Annotated[
        bool, typer.Option("--strict", help="Fail on any warning: a malformed record, a broken internal link.")
    ] = False,
    records_dir: RecordsDirOption = None,
    config: ConfigFile = None,
    today: TodayOption = None,
    json_output: JsonFlag = False,
) -> None:
    """Build the static site: every record with its charts, reviews, tier view, knowledge base, CLI reference."""
    from advisor.dates import parse_date
    from advisor.site.build import build_site

    result = build_site(
        config,
        out=out,
        records_dir=records_dir,
        strict=strict,
        root=project_settings().root,
        today=parse_date(today, "--today") if today else None,
    )
    if json_output:
        typer.echo(json.dumps(result.as_json(), indent=2))
        return
    for warning in result.warnings:
        warn(warning)
    typer.echo(
        f"built {result.pages} pages in {result.seconds:.1f} s into {result.out}"
        + (f" ({len(result.warnings)} warning(s); --strict fails on them)" if result.warnings else "")
    )


@app.command("serve", short_help="Preview the site with live reload.")
@reports_errors
def serve_command(
    addr: Annotated[
        str, typer.Option("--addr", metavar="HOST:PORT", help="Address and port to serve on.")
    ] = "127.0.0.1:8000",
    records_dir: RecordsDirOption = None,
    config: ConfigFile = None,
    today: TodayOption = None,
) -> None:
    """Preview the site at http://ADDR with live reload; edits to records rebuild it. Ctrl-C stops."""
    from advisor.cli.output import warn
    from advisor.dates import parse_date
    from advisor.site.address import serve_address
    from advisor.site.build import serve_site

    address = serve_address(addr)
    if address.reachable_from_others:
        warn(
            f"--addr {address}: listening beyond this machine's loopback; other machines can reach the site "
            "and every record on it (use 127.0.0.1 to keep it to this machine)"
        )
    serve_site(
        config,
        records_dir=records_dir,
        dev_addr=addr,
        root=project_settings().root,
        today=parse_date(today, "--today") if today else None,
    )
