"""The click group class of `advisor` and of its command groups (`kb`, `records`, `site`), and the settings
every Typer app of the CLI shares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from typer.core import TyperGroup

if TYPE_CHECKING:
    from typer._click import Context
    from typer.core import TyperOption


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
        self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
        standalone_mode: bool = True, **kwargs: Any,
    ) -> Any:  # fmt: skip
        """As click's, but a usage error (an unknown option, a value not among the choices, a missing
        argument) is one line on stderr, `error: ...`, exit code 2, like every other bad input; and all
        the command prints has its control characters escaped (advisor/terminal_text.py says why here)."""
        from advisor.terminal_text import escaped_streams

        with escaped_streams():
            return self._main(args, prog_name, complete_var, standalone_mode, **kwargs)

    def _main(
        self, args: Sequence[str] | None, prog_name: str | None, complete_var: str | None, standalone_mode: bool,
        **kwargs: Any,
    ) -> Any:  # fmt: skip
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **kwargs)
        import sys

        import typer
        from typer._click import exceptions  # typer vendors click: its own exception classes

        from advisor.terminal_text import one_line

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


# Every Typer app of the CLI: plain help (wraps at the terminal's width, never cuts an option name,
# and starts in half the time of rich's panels), -h as well as --help, help when named alone, values'
# control characters shown escaped.
APP_SETTINGS: dict[str, Any] = {
    "cls": CommandGroup,
    "no_args_is_help": True,
    "rich_markup_mode": None,
    # color: click would strip escape sequences from what goes to a pipe and keep them for a terminal; the
    # escaping streams (advisor/terminal_text.py) show them escaped on both, so a value reads the same on each.
    # advisor echoes no colours of its own (rich's come through advisor/cli/console.py).
    "context_settings": {"help_option_names": ["-h", "--help"], "color": True},
}
