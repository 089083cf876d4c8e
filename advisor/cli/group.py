"""The click group class of `advisor` and of its command groups (`kb`, `records`, `site`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
