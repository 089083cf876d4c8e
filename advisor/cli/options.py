"""Options shared by several commands, as Annotated aliases, and the project settings behind their defaults.

An option left at its default takes the project's setting (`advisor.toml` or `[tool.advisor]`, see
advisor/settings.py) when there is one: click tells a default from a value typed on the command line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional, TypeVar

import typer

if TYPE_CHECKING:
    from advisor.settings import ProjectSettings

JsonFlag = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of a table.")]


def project_settings() -> ProjectSettings:
    """The settings seen from the current folder; a wrong settings file is a one-line error."""
    from advisor.cli.output import fail
    from advisor.settings import SettingsError, load_settings

    try:
        return load_settings()
    except SettingsError as error:
        fail(str(error))


def typed(ctx: typer.Context, param: typer.CallbackParam) -> bool:
    """The option was given on the command line (or by an environment variable), not left at its default."""
    source = ctx.get_parameter_source(param.name or "")
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def folder_path(value: str | Path) -> Path:
    """A folder option's text as a path; an empty one is refused (Path('') would quietly mean the current folder)."""
    if not str(value):
        raise typer.BadParameter("is empty; name a folder (`.` for the current one)")
    return Path(value)


def records_folder(ctx: typer.Context, param: typer.CallbackParam, value: Optional[Path]) -> Optional[Path]:
    """--records-dir: as typed, else the project's records_dir, else records/ at the project root; a
    folder, or a path that does not exist yet (created when a record is written)."""
    from advisor.cli.output import fail

    if not typed(ctx, param):
        value = settled(lambda: project_settings().records_dir())
    if value is not None and value.exists() and not value.is_dir():
        fail(f"--records-dir {value}: not a folder (it names a file)")
    return value


def site_records_folder(ctx: typer.Context, param: typer.CallbackParam, value: Optional[Path]) -> Optional[Path]:
    """--records-dir of the site: as typed, else the project's records_dir when it sets one, else None (the
    MkDocs config's extra.advisor.records_dir, then records/, decide)."""
    from advisor.cli.output import fail

    if not typed(ctx, param):
        settings = project_settings()
        value = settled(settings.records_dir) if "records_dir" in settings.values else None
    if value is not None and value.exists() and not value.is_dir():
        fail(f"--records-dir {value}: not a folder (it names a file)")
    return value


def setting_default(key: str) -> Any:
    """A callback giving an option left at its default the project's `key` setting, when it has one."""

    def resolve(ctx: typer.Context, param: typer.CallbackParam, value: Any) -> Any:
        if typed(ctx, param):
            return value
        settings = project_settings()
        return settled(lambda: settings.resolve(key).value) if key in settings.values else value

    return resolve


Value = TypeVar("Value")


def settled(read: Callable[[], Value]) -> Value:
    """`read()`, with a setting that cannot be used (a folder outside the project) as a one-line error."""
    from advisor.cli.output import fail
    from advisor.settings import SettingsError

    try:
        return read()
    except SettingsError as error:
        fail(str(error))


RecordsDir = Annotated[
    Path,
    typer.Option(
        "--records-dir",
        metavar="DIR",
        callback=records_folder,
        parser=folder_path,
        show_default=False,
        help="Folder of the decision records (default: records_dir of the project settings, else records/ at the project root).",
    ),
]
Budget = Annotated[
    float,
    typer.Option(
        "--budget",
        metavar="SECONDS",
        callback=setting_default("budget"),
        show_default=False,
        help="Wall-clock seconds for the probes (default: budget of the project settings, else 60).",
    ),
]
