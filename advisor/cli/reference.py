"""The click command behind `advisor`, for the generated CLI reference (mkdocs-click reads `command`)."""

from __future__ import annotations

import typer

from advisor.cli import app

command = typer.main.get_command(app)
