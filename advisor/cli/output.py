"""Printing shared by every command: JSON to stdout, errors as one line on stderr."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn, TypeVar

import typer

from advisor.errors import MACHINE_EXIT, AdvisorError

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


def warn(message: str) -> None:
    """`warning: message` on stderr: the input is accepted, but someone should look at it."""
    sys.stderr.write(f"warning: {message}\n")


def os_error_line(error: OSError) -> str:
    """`path: reason` for an OSError (the path it names, when it names one)."""
    reason = error.strerror or type(error).__name__
    return f"{error.filename}: {reason}" if error.filename else reason


def reports_errors(command: Command) -> Command:
    """Wrap a CLI command so an AdvisorError becomes `error: ...` and its exit code (2 for input, 1 for the
    machine), and an OSError left unexplained a one-line error with exit code 1; never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: object, **kwargs: object) -> object:
        try:
            return command(*args, **kwargs)
        except AdvisorError as error:
            fail(str(error), error.exit_code)
        except OSError as error:  # a file operation no reader or writer turned into its own message
            fail(os_error_line(error), MACHINE_EXIT)

    return wrapper  # type: ignore[return-value]
