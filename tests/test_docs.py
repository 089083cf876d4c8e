"""Docs that cannot rot: every command has help text and is named in the README's command table."""

from __future__ import annotations

from pathlib import Path

import typer

from advisor.cli import app

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def all_commands() -> dict[str, object]:
    """'env', 'kb list', ... -> the click command, walking groups."""
    found: dict[str, object] = {}

    def walk(command: object, path: str) -> None:
        if hasattr(command, "commands"):  # a group (typer vendors its own click classes)
            for name, sub in command.commands.items():
                walk(sub, f"{path} {name}".strip())
        else:
            found[path] = command

    walk(typer.main.get_command(app), "")
    return found


def test_every_command_has_help_and_is_in_the_readme():
    commands = all_commands()
    assert {"env", "probe", "recommend", "schema", "kb list", "kb show"} <= set(commands)
    for name, command in commands.items():
        assert (command.help or "").strip(), f"advisor {name} has no help text"
        assert f"`advisor {name}" in README, f"advisor {name} is missing from the README's command table"


def test_every_option_has_help():
    for name, command in all_commands().items():
        for parameter in command.params:
            if parameter.param_type_name == "option" and parameter.name != "help":
                assert (parameter.help or "").strip(), f"advisor {name} {parameter.opts[0]} has no help text"


def test_the_readme_knowledge_tables_are_the_knowledge_base():
    from advisor.knowledge.loader import load_knowledge_base
    from advisor.knowledge.overview import markdown_tables

    start, end = "<!-- kb-tables:start -->\n", "<!-- kb-tables:end -->"
    shown = README[README.index(start) + len(start) : README.index(end)]
    assert shown == markdown_tables(load_knowledge_base()), "regenerate with: advisor kb list --markdown"
    assert "](https://" in shown and "| 2026-" in shown
