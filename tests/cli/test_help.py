"""The help of every command and group at 80 columns, as the CLI prints it (plain click help, no rich panels):
nothing wider than the terminal, nothing cut with "...", no type tags, a clean usage line, the commands in the
order of the work, and examples that the parser accepts."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.core import TyperGroup
from typer.testing import CliRunner

from advisor.cli import app

ROOT = typer.main.get_command(app)
MAIN_COMMANDS = ("assess", "recommend", "probe", "compare", "review", "records", "site", "kb", "env")
# A usage line: the command's path, [OPTIONS], then arguments as NAME or [NAME], with `...` when variadic.
USAGE = re.compile(r"Usage: advisor(?: [a-z]+)* \[OPTIONS\](?: COMMAND \[ARGS\]\.\.\.| \[?[A-Z][\w.]*\]?(?:\.\.\.)?)*")
VARIADIC_ARGUMENT = re.compile(r"^  \[?[A-Z][\w.]*\]?\.\.\.(?=\s)", re.MULTILINE)  # a row of the Arguments section


def _paths(command: typer.core.TyperCommand | TyperGroup, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    yield path
    if isinstance(command, TyperGroup):
        for name, sub in command.commands.items():
            yield from _paths(sub, (*path, name))  # type: ignore[arg-type]


PATHS = list(_paths(ROOT))  # type: ignore[arg-type]


def _help(path: tuple[str, ...]) -> str:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.stdout


def _examples(text: str) -> list[str]:
    """The command lines of the help's Examples block."""
    block = text.partition("\nExamples:\n")[2] or text.partition("  Examples:\n")[2]
    return [line.strip() for line in block.splitlines() if line.strip().startswith("advisor ")]


def _parsed(line: str) -> typer.Context:
    """The context click builds from an example's words, strictly: an unknown flag or a wrong value raises."""
    words = shlex.split(line)
    assert words[0] == "advisor", line
    command, name, rest, parent = ROOT, "advisor", words[1:], None
    while isinstance(command, TyperGroup):  # the groups take no options in any example: just the subcommand
        context = command.make_context(name, rest[:1], parent=parent)
        name, rest, parent = rest[0], rest[1:], context
        command = command.get_command(context, name)  # type: ignore[assignment]
        assert command is not None, f"{line}: no command {name!r}"
    return command.make_context(name, rest, parent=parent, resilient_parsing=False)


def test_every_command_is_walked():
    assert {path[:1] for path in PATHS if path} == {(name,) for name in ROOT.commands}  # type: ignore[attr-defined]
    assert ("records", "supersede") in PATHS and ("kb", "check") in PATHS


@pytest.mark.parametrize("path", PATHS, ids=lambda path: " ".join(path) or "advisor")
def test_help_reads_at_80_columns(path: tuple[str, ...]):
    text = _help(path)
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    assert "…" not in text
    assert "..." not in VARIADIC_ARGUMENT.sub("", text.split("\n\n", 1)[1]), "a summary or a text cut with ..."
    usage = lines[0]
    assert USAGE.fullmatch(usage), usage
    assert "[[" not in text and "<list[" not in text and "<Path>" not in text
    assert re.findall(r"<[^>|]*>", text) == [], "a type tag; only a choice list <a|b> may stand in angle brackets"


@pytest.mark.parametrize("name", MAIN_COMMANDS)
def test_each_main_command_shows_examples_the_parser_accepts(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.chdir(tmp_path)  # the options that read the project settings read none
    examples = _examples(_help((name,)))
    assert examples, f"advisor {name} --help has no Examples block"
    for line in examples:
        assert line.startswith(f"advisor {name}"), line
        context = _parsed(line)
        assert context.args == [], line


def test_a_wrong_flag_in_an_example_fails_the_parse():
    with pytest.raises(Exception, match="--quantisation"):
        _parsed("advisor assess --yes --quantisation fp8")
    with pytest.raises(Exception, match="fp9"):
        _parsed("advisor assess --quantization fp9")
    with pytest.raises(Exception, match="surpass"):
        _parsed("advisor records surpass 1 4")


def test_the_commands_are_listed_in_the_order_of_the_work():
    text = _help(())
    section = text.partition("\nCommands:\n")[2].split("\n\n")[0]
    listed = [line.split()[0] for line in section.splitlines()]
    assert listed == [*MAIN_COMMANDS, "ops", "config", "schema"]
    assert list(ROOT.commands) == listed  # type: ignore[attr-defined]  # the site's CLI page reads them in this order
    summaries = [line.split(maxsplit=1)[1] for line in section.splitlines()]
    assert all(summary.endswith(".") for summary in summaries), summaries  # whole sentences, none cut


def test_a_variadic_argument_reads_once_in_the_usage_and_the_arguments():
    text = _help(("assess",))
    assert text.splitlines()[0] == "Usage: advisor assess [OPTIONS] [EVIDENCE.json]..."
    assert re.search(r"^  \[EVIDENCE\.json\]\.\.\.  +More evidence files", text, re.MULTILINE), text
    assert _help(("compare",)).splitlines()[0] == "Usage: advisor compare [OPTIONS] A.json B.json [C.json]..."
    assert _help(("kb", "check")).splitlines()[0] == "Usage: advisor kb check [OPTIONS] FILE..."
