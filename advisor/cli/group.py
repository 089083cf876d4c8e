"""The click classes of `advisor`: its group, the groups under it (`kb`, `records`, `site`) and their commands,
and the settings every Typer app of the CLI shares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

if TYPE_CHECKING:
    from typer._click import Context, HelpFormatter, Parameter
    from typer.core import TyperOption

# The commands of `advisor --help` in the order of the work: decide, measure, compare, review, keep and publish;
# then the reference and the tools. A command missing here is listed after these.
COMMAND_ORDER = (
    "assess",
    "recommend",
    "probe",
    "compare",
    "review",
    "records",
    "site",
    "kb",
    "env",
    "ops",
    "config",
    "schema",
)


class CommandGroup(TyperGroup):
    """A Typer group whose `--help` flag reads False, not None, when it is not given.

    Typer coerces a flag's None through a pydantic TypeAdapter: importing pydantic and building the
    adapter cost about 50 ms, paid in `advisor site build --help` by each group above the command.
    A bool needs no coercion, so the help of every command stays as light as `advisor --help`.
    """

    def get_help_option(self, ctx: Context) -> TyperOption | None:
        option = super().get_help_option(ctx)
        if option is not None:
            option.default = False
        return option

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **kwargs: Any,
    ) -> Any:
        """As click's, but a usage error (an unknown option, a value not among the choices, a missing
        argument) is one line on stderr, `error: ...`, exit code 2, like every other bad input; and all
        the command prints has its control characters escaped (probes/terminal_text.py says why here)."""
        from probes.terminal_text import escaped_streams

        with escaped_streams():
            return self._main(args, prog_name, complete_var, standalone_mode, **kwargs)

    def _main(
        self,
        args: Sequence[str] | None,
        prog_name: str | None,
        complete_var: str | None,
        standalone_mode: bool,
        **kwargs: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **kwargs)
        import sys

        import typer
        from typer._click import exceptions  # typer vendors click: its own exception classes

        from probes.terminal_text import one_line

        try:
            returned = super().main(args, prog_name, complete_var, False, **kwargs)
        except exceptions.UsageError as error:
            where = f" (see `{error.ctx.command_path} -h`)" if error.ctx is not None else ""
            message = error.format_message().replace("Value error, ", "").replace("\n", " ")  # click's own breaks
            sys.stderr.write(f"error: {' '.join(one_line(message).split())}{where}\n")
            sys.exit(error.exit_code)
        except exceptions.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        except typer.Abort:
            sys.stderr.write("Aborted!\n")
            sys.exit(1)
        sys.exit(returned if isinstance(returned, int) else 0)

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        """A group named alone (`advisor`, `advisor kb`) prints its help and exits 0: asking is not an error."""
        if not args and self.no_args_is_help and not ctx.resilient_parsing:
            import typer

            typer.echo(ctx.get_help(), color=ctx.color)
            ctx.exit(0)
        return super().parse_args(ctx, args)


class WorkflowGroup(CommandGroup):
    """The `advisor` group: its commands kept in COMMAND_ORDER (Typer adds the plain commands first, then the
    groups), for its help and for the site's CLI page (mkdocs-click reads `commands` as it is) alike."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        place = {name: index for index, name in enumerate(COMMAND_ORDER)}
        self.commands = dict(sorted(self.commands.items(), key=lambda item: place.get(item[0], len(COMMAND_ORDER))))


def argument_name(argument: Parameter) -> str:
    """An argument as the usage line and the help name it: METAVAR (or the name upper-cased), in brackets when
    optional, `...` after when it takes several; Typer's type tag (`<list[Path]>`) left out."""
    name = argument.metavar or (argument.name or "").upper()
    shown = name if argument.required else f"[{name}]"
    return f"{shown}..." if argument.nargs != 1 else shown


class Command(TyperCommand):
    """A Typer command whose usage line and Arguments section name each argument by `argument_name`."""

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            pieces.extend([argument_name(param)] if isinstance(param, TyperArgument) else param.get_usage_pieces(ctx))
        return pieces

    def format_options(self, ctx: Context, formatter: HelpFormatter) -> None:
        arguments, options = [], []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if isinstance(param, TyperArgument):
                arguments.append((argument_name(param), record[1]))
            else:
                options.append(record)
        for title, rows in (("Arguments", arguments), ("Options", options)):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


def examples(*cases: tuple[str, str]) -> str:
    """A command's epilog: "Examples:", then each case's purpose and its command line, kept as written (click
    rewraps a paragraph unless a `\\b` line opens it); tests/cli/test_help.py parses every command line."""
    lines = [f"  {purpose}\n    {command}" for purpose, command in cases]
    return "\b\nExamples:\n" + "\n".join(lines)


class CommandApp(typer.Typer):
    """A Typer app whose commands are `Command`s."""

    def command(self, name: str | None = None, *, cls: type[TyperCommand] | None = None, **settings: Any) -> Any:
        return super().command(name, cls=cls or Command, **settings)


# Every Typer app of the CLI: plain help (wraps at the terminal's width, never cuts an option name,
# and starts in half the time of rich's panels), -h as well as --help, help when named alone, values'
# control characters shown escaped.
APP_SETTINGS: dict[str, Any] = {
    "cls": CommandGroup,
    "no_args_is_help": True,
    "rich_markup_mode": None,
    # color: click would strip escape sequences from what goes to a pipe and keep them for a terminal; the
    # escaping streams (probes/terminal_text.py) show them escaped on both, so a value reads the same on each.
    # advisor echoes no colours of its own (rich's come through advisor/cli/console.py).
    "context_settings": {"help_option_names": ["-h", "--help"], "color": True},
}
