"""Printing shared by every command: JSON to stdout, errors as one line on stderr."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, NoReturn

import typer

if TYPE_CHECKING:
    from pydantic import BaseModel


def print_json(model: BaseModel) -> None:
    """A model as indented JSON on stdout (the `--json` contract)."""
    typer.echo(model.model_dump_json(indent=2))


def fail(message: str, code: int = 2) -> NoReturn:
    """Exit with `error: message` on stderr; no traceback."""
    sys.stderr.write(f"error: {message}\n")
    raise SystemExit(code)
