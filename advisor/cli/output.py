"""Printing shared by every command: JSON to stdout, errors as one line on stderr."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn, TypeVar

import typer

from advisor.errors import AdvisorError
from advisor.interrupts import describe, exit_code

if TYPE_CHECKING:
    from pydantic import BaseModel

Command = TypeVar("Command", bound=Callable[..., object])


def print_json(model: BaseModel) -> None:
    """A model as indented JSON on stdout (the `--json` contract)."""
    typer.echo(model.model_dump_json(indent=2))


def fail(message: str, code: int = 2) -> NoReturn:
    """Exit with `error: message` on stderr; no traceback."""
    sys.stderr.write(f"error: {message}\n")
    raise SystemExit(code)


def reports_errors(command: Command) -> Command:
    """Wrap a CLI command so an AdvisorError becomes `error: ...` and exit code 2, never a traceback, and a stop
    signal (Ctrl-C, SIGTERM) one `interrupted (...)` line and exit 128 + its number."""

    @functools.wraps(command)
    def wrapper(*args: object, **kwargs: object) -> object:
        try:
            return command(*args, **kwargs)
        except AdvisorError as error:
            fail(str(error))
        except KeyboardInterrupt as interrupt:
            sys.stderr.write(f"{describe(interrupt)}\n")
            raise SystemExit(exit_code(interrupt)) from None

    return wrapper  # type: ignore[return-value]
