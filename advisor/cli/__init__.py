"""The `advisor` command: a thin Typer layer over the library; each group lives in its own module."""

from __future__ import annotations

import sys

import typer

from advisor._version import __version__
from advisor.cli import assess, compare, config, env, kb, ops, probe, recommend, records, review, schema, site
from advisor.cli.group import APP_SETTINGS
from advisor.cli.output import fail, os_error_line, reports_errors
from advisor.errors import MACHINE_EXIT, AdvisorError
from advisor.interrupts import describe, exit_code, stop_on_signals
from advisor.terminal_text import shown

app = typer.Typer(
    name="advisor",
    help="Choose an ML operator stack from measured evidence and keep each choice as a decision record.",
    add_completion=False,
    pretty_exceptions_enable=False,
    **APP_SETTINGS,
)
app.command(name="assess")(reports_errors(assess.assess_command))
app.command(name="compare")(reports_errors(compare.compare_command))
app.command(name="config")(reports_errors(config.config_command))
app.command(name="env")(reports_errors(env.env_command))
app.command(name="ops")(reports_errors(ops.ops_command))
app.command(name="probe")(reports_errors(probe.probe_command))
app.command(name="recommend")(reports_errors(recommend.recommend_command))
app.command(name="review")(reports_errors(review.review_command))
app.command(name="schema")(reports_errors(schema.schema_command))
app.add_typer(kb.app, name="kb")
app.add_typer(records.app, name="records")
app.add_typer(site.app, name="site")


def _version(show: bool) -> None:
    if show:
        typer.echo(f"advisor {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    """Choose an ML operator stack from measured evidence and keep each choice as a decision record."""


def main() -> None:
    """Console-script entry point: library errors become one line on stderr and their exit code; SIGINT, SIGTERM
    and SIGHUP stop the command cleanly (exit 128 + the signal's number) for as long as it runs; anything else is
    a bug, shown as its traceback with control characters escaped (a value in an exception's message cannot
    drive the terminal), exit 1."""
    with stop_on_signals():
        try:
            app()
        except AdvisorError as error:
            fail(str(error), error.exit_code)
        except OSError as error:
            fail(os_error_line(error), MACHINE_EXIT)
        except KeyboardInterrupt as interrupt:  # one that came before or after a command's own handling
            sys.stderr.write(f"{describe(interrupt)}\n")
            sys.exit(exit_code(interrupt))
        except Exception:  # a bug: its traceback for the report, the values in it escaped like all other output
            import traceback

            sys.stderr.write(shown(traceback.format_exc()))
            sys.exit(1)
