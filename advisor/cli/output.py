"""Printing shared by every command: JSON to stdout, errors and warnings as one line on stderr.

Every value printed has its control characters shown escaped (probes/terminal_text.py): the streams do it for
what passes through them; these printers keep a message on one line and JSON valid.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn, TypeVar

import typer

from advisor.interrupts import describe, exit_code
from probes.errors import MACHINE_EXIT, AdvisorError
from probes.terminal_text import json_safe, one_line

if TYPE_CHECKING:
    from pydantic import BaseModel

Command = TypeVar("Command", bound=Callable[..., object])


def print_json(model: BaseModel) -> None:
    """A model as indented JSON on stdout (the `--json` contract)."""
    typer.echo(json_safe(model.model_dump_json(indent=2)))


def print_json_document(document: object) -> None:
    """A JSON document as indented JSON on stdout, non-ASCII text as it is (DEL and C1 escaped: json_safe)."""
    typer.echo(json_safe(json.dumps(document, indent=2, ensure_ascii=False)))


def warn(message: str) -> None:
    """`warning: message` as one line on stderr: the input is accepted, but someone should look at it."""
    sys.stderr.write(f"warning: {one_line(message)}\n")


def fail(message: str, code: int = 2) -> NoReturn:
    """Exit with `error: message` on stderr, one line whatever the message holds; no traceback."""
    sys.stderr.write(f"error: {one_line(message)}\n")
    raise SystemExit(code)


def os_error_line(error: OSError) -> str:
    """`path: reason` for an OSError (the path it names, when it names one)."""
    reason = error.strerror or type(error).__name__
    return f"{error.filename}: {reason}" if error.filename else reason


def reports_errors(command: Command) -> Command:
    """Wrap a CLI command so an AdvisorError becomes `error: ...` and its exit code (2 for input, 1 for the
    machine), an OSError left unexplained a one-line error with exit code 1, never a traceback, and a stop
    signal (Ctrl-C, SIGTERM) one `interrupted (...)` line and exit 128 + its number."""

    @functools.wraps(command)
    def wrapper(*args: object, **kwargs: object) -> object:
        try:
            return command(*args, **kwargs)
        except AdvisorError as error:
            fail(str(error), error.exit_code)
        except OSError as error:  # a file operation no reader or writer turned into its own message
            fail(os_error_line(error), MACHINE_EXIT)
        except KeyboardInterrupt as interrupt:
            sys.stderr.write(f"{describe(interrupt)}\n")
            raise SystemExit(exit_code(interrupt)) from None

    return wrapper  # type: ignore[return-value]
