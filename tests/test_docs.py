"""Docs that cannot rot: every command has help text and a section in the guide; the guide's generated tables, lists
and snippets match the code they describe; every guide page is in the site's navigation."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import typer
import yaml

from advisor.cli import app

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "site" / "guide"


def page(name: str) -> str:
    return (GUIDE / name).read_text(encoding="utf-8")


def fenced_blocks(text: str, language: str) -> list[str]:
    """The contents of the page's ```language code blocks."""
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.S | re.M)


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


def command_line_problem(line: str) -> str | None:
    """Why the real CLI would refuse an `advisor ...` command line (an unknown command, option or value), or None;
    it only parses the line, running nothing."""
    words = shlex.split(line)
    if words[:1] != ["advisor"]:
        return "not an advisor command line"
    command, rest = typer.main.get_command(app), words[1:]
    while hasattr(command, "commands") and rest and rest[0] in command.commands:
        command, rest = command.commands[rest[0]], rest[1:]
    if hasattr(command, "commands"):
        return f"{' '.join(words[: len(words) - len(rest)])} is a group: name one of its commands"
    try:
        command.make_context(line, rest)  # type: ignore[attr-defined]
    except Exception as error:  # typer's own click raises a UsageError for anything it refuses
        return str(error)
    return None


def test_every_command_has_help_and_a_section_in_the_guide():
    commands = all_commands()
    guide = page("commands.md")
    assert {"env", "probe", "recommend", "schema", "kb list", "kb show"} <= set(commands)
    for name, command in commands.items():
        assert (command.help or "").strip(), f"advisor {name} has no help text"
        assert f"`advisor {name}" in guide, f"advisor {name} is missing from site/guide/commands.md"


def test_every_option_has_help():
    for name, command in all_commands().items():
        for parameter in command.params:
            if parameter.param_type_name == "option" and parameter.name != "help":
                assert (parameter.help or "").strip(), f"advisor {name} {parameter.opts[0]} has no help text"


def test_the_guide_knowledge_tables_are_the_knowledge_base():
    from advisor.knowledge.loader import load_knowledge_base
    from advisor.knowledge.overview import markdown_tables

    text = page("knowledge-base.md")
    start, end = "<!-- kb-tables:start -->\n", "<!-- kb-tables:end -->"
    shown = text[text.index(start) + len(start) : text.index(end)]
    assert shown == markdown_tables(load_knowledge_base()), "regenerate with: advisor kb list --markdown"
    assert "](https://" in shown and "| 2026-" in shown


def test_every_guide_page_is_in_the_navigation_after_the_packaged_one():
    project = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    packaged = yaml.safe_load((ROOT / "advisor" / "site" / "mkdocs-base.yml").read_text(encoding="utf-8"))
    nav = project["nav"]
    assert nav[: len(packaged["nav"])] == packaged["nav"], "mkdocs.yml's nav replaces the packaged one: repeat it first"
    (guide,) = [entry["Guide"] for entry in nav if isinstance(entry, dict) and "Guide" in entry]
    listed = {path for entry in guide for path in entry.values()}
    assert listed == {f"guide/{path.name}" for path in GUIDE.glob("*.md")}


def test_the_benchmark_table_lists_every_benchmark_script():
    listed = set(re.findall(r"^\| `(bench_\w+\.py)` \|", page("development.md"), re.M))
    assert listed == {path.name for path in (ROOT / "bench").glob("bench_*.py")}


def test_the_settings_example_holds_every_setting_and_loads(tmp_path: Path):
    from advisor.settings import KEYS, load_settings

    (example,) = fenced_blocks(page("settings.md"), "toml")
    (tmp_path / "pyproject.toml").write_text(example, encoding="utf-8")
    settings = load_settings(tmp_path)
    assert settings.file == tmp_path / "pyproject.toml"
    assert set(re.findall(r"^(\w+) =", example, re.M)) == set(KEYS)


def test_the_install_page_names_the_three_torch_indexes_and_both_install_paths():
    text = page("install.md")
    for index in ("download.pytorch.org/whl/cpu", "download.pytorch.org/whl/cu", "download.pytorch.org/whl/rocm"):
        assert f"--index-url https://{index}" in text, index
    assert "torch>=2.4" in text and "python -m advisor" in text
    for command in (
        "pip install /path/to/advisor",
        "pip install -e /path/to/advisor",
        "pip wheel --no-deps",
        "python -m build --wheel",
        "pip install dist/advisor-",
    ):
        assert command in text, command


def test_the_pre_commit_hook_runs_a_real_advisor_command():
    configs = [yaml.safe_load(block) for block in fenced_blocks(page("install.md"), "yaml")]
    (config,) = [config for config in configs if "repos" in config]
    (repo,) = config["repos"]
    (hook,) = repo["hooks"]
    assert repo["repo"] == "local" and hook["language"] == "system" and hook["pass_filenames"] is False
    assert hook["entry"] == "advisor review --due --check"
    assert command_line_problem(hook["entry"]) is None


def test_the_ci_snippet_is_a_valid_workflow_that_runs_the_gate(tmp_path: Path):
    (block,) = [block for block in fenced_blocks(page("install.md"), "yaml") if "jobs" in yaml.safe_load(block)]
    workflow = yaml.safe_load(block)
    runs = [step["run"] for job in workflow["jobs"].values() for step in job["steps"] if "run" in step]
    assert "advisor review --due --check" in runs
    assert [problem for line in runs if line.startswith("advisor ") and (problem := command_line_problem(line))] == []
    path = tmp_path / "advisor-due.yml"
    path.write_text(block, encoding="utf-8")
    checker = Path(sys.executable).with_name("check-jsonschema")
    result = subprocess.run(
        [str(checker), "--builtin-schema", "vendor.github-workflows", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("advisor review --due --chek", "No such option"),
        ("advisor reveiw --due", "is a group"),
        ("advisor kb", "is a group"),
        ("advisor review --budget soon", "valid number"),
    ],
)
def test_a_mistyped_command_line_is_refused(line: str, problem: str):
    assert problem in (command_line_problem(line) or "")
