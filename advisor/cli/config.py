"""`advisor config`: the effective project settings and where each came from."""

from __future__ import annotations

import json

from advisor.cli.options import JsonFlag, project_settings
from probes.terminal_text import one_line


def config_command(json_output: JsonFlag = False) -> None:
    """Show the project settings in effect here (advisor.toml or [tool.advisor] in pyproject.toml, found from any
    subdirectory), each with its source; a flag on a command overrides them."""
    import typer

    settings = project_settings()
    effective = settings.effective()
    if json_output:
        document = {
            "root": str(settings.root) if settings.root else None,
            "file": str(settings.file) if settings.file else None,
            "settings": {
                key: {
                    "value": str(item.value) if key.endswith("_dir") and item.value is not None else item.value,
                    "source": item.source,
                }
                for key, item in effective.items()
            },
        }
        typer.echo(json.dumps(document, indent=2))
        return
    typer.echo(f"project root: {settings.root or '(none: not in a repository; paths are relative to this folder)'}")
    typer.echo(f"settings file: {settings.file or '(none: advisor.toml or [tool.advisor] in pyproject.toml)'}")
    width = max(len(key) for key in effective)
    for key, item in effective.items():
        value = ", ".join(item.value) if isinstance(item.value, list) else item.value
        value = "-" if value in (None, "") else value
        typer.echo(f"  {key:<{width}}  {one_line(str(value))}  ({one_line(item.source)})")
