"""The README is an entry: one screen of what advisor is, short table cells, links that resolve, and samples of
`advisor assess` output and of its decision record that a real run regenerates.

After a change to either format, refresh the samples with one command:

    UPDATE_README=1 .venv/bin/python -m pytest tests/test_readme.py
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shlex
import shutil
from pathlib import Path

import pytest
import yaml
from git import Repo
from typer.testing import CliRunner

from advisor.cli import app

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
REFRESH = "UPDATE_README=1 .venv/bin/python -m pytest tests/test_readme.py"
MAX_LINES, MAX_CELL = 150, 200

SAMPLE_PROFILE = "examples/llm-serving-h200.yaml"
ASSESS_ARGS = [
    "assess",
    "--yes",
    "--no-probes",
    "--no-commit",
    "--profile",
    SAMPLE_PROFILE,
    "--decider",
    "Platform team",
]
ASSESS_LINES, RECORD_LINES = 24, 22
# The record's date is the day it is written (assess has no --today): shown as this day, the review a year on.
SAMPLE_DAY = dt.date(2026, 12, 4)


def readme_outside_fences(text: str) -> list[str]:
    """The README's lines that are Markdown, not the content of a fenced code block."""
    lines, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def table_cells(text: str) -> list[str]:
    """Every cell of every Markdown table, outside code blocks (an escaped pipe stays inside its cell)."""
    cells = []
    for line in readme_outside_fences(text):
        if line.startswith("|"):
            cells += [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
    return cells


def _excerpt(lines: list[str], count: int) -> list[str]:
    shown = [line.rstrip() for line in lines[:count]]
    left = len(lines) - count
    return shown + ([f"[... {left} more lines]"] if left > 0 else [])


def _normalised(text: str, project: Path, front: dict[str, object]) -> str:
    """The run's varying parts made fixed: the temporary project's path, the record's date and review date."""
    text = text.replace(f"{project}{os.sep}", "")
    written, review_by = front["date"], front["review_by"]
    assert isinstance(written, dt.date) and isinstance(review_by, dt.date)
    text = text.replace(review_by.isoformat(), (SAMPLE_DAY + (review_by - written)).isoformat())
    return text.replace(written.isoformat(), SAMPLE_DAY.isoformat())


def generated_samples(project: Path) -> dict[str, str]:
    """Run the README's `advisor assess` in `project`, an empty repository that is the current folder, and render
    the two samples as Markdown."""
    (project / "examples").mkdir()
    shutil.copy(ROOT / SAMPLE_PROFILE, project / SAMPLE_PROFILE)
    result = CliRunner().invoke(app, ASSESS_ARGS, env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    (record,) = (project / "records").glob("0*.md")
    _, front_text, body = record.read_text(encoding="utf-8").split("---\n", 2)
    front = yaml.safe_load(front_text)
    command = shlex.join(["advisor", *ASSESS_ARGS])
    assess = [f"$ {command}", *_excerpt(result.stdout.splitlines(), ASSESS_LINES)]
    shown = _excerpt(body.lstrip("\n").splitlines(), RECORD_LINES)
    samples = {
        "assess": "```console\n" + "\n".join(assess) + "\n```\n",
        "record": f"`{record.relative_to(project)}`:\n\n```markdown\n" + "\n".join(shown) + "\n```\n",
    }
    return {name: _normalised(text, project, front) for name, text in samples.items()}


def _marked(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- sample:{name}:start -->\n)(.*?)(<!-- sample:{name}:end -->)", re.S)


def test_the_samples_are_what_the_commands_print_now(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project = tmp_path / "project"
    Repo.init(project)
    monkeypatch.chdir(project)
    samples = generated_samples(project)
    text = README.read_text(encoding="utf-8")
    if os.environ.get("UPDATE_README") == "1":
        for name, sample in samples.items():
            text = _marked(name).sub(lambda match: match.group(1) + sample + match.group(3), text)
        README.write_text(text, encoding="utf-8")
    for name, sample in samples.items():
        found = _marked(name).search(text)
        assert found, f"README lost its <!-- sample:{name}:start/end --> markers"
        assert found.group(2) == sample, f"the README's {name} sample is out of date: refresh with {REFRESH}"


def test_the_samples_show_a_real_recommendation_and_record():
    text = README.read_text(encoding="utf-8")
    assess, record = (_marked(name).search(text) for name in ("assess", "record"))
    assert assess and record
    assert "$ advisor assess --yes --no-probes" in assess.group(2) and "Verdict: " in assess.group(2)
    assert "**Verdict:**" in record.group(2) and "## Context and Problem Statement" in record.group(2)
    assert not re.search(r"/tmp/|pytest-of-", assess.group(2) + record.group(2)), "a temporary path leaked in"


def test_the_readme_fits_one_entry_page():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_LINES, f"README.md has {len(text.splitlines())} lines, at most {MAX_LINES}"
    cells = table_cells(text)
    assert cells, "the README lost its command table"
    longest = max(cells, key=len)
    assert len(longest) <= MAX_CELL, f"a README table cell has {len(longest)} characters: {longest[:80]}..."


def test_the_readme_links_resolve_and_point_at_the_guide():
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", "\n".join(readme_outside_fences(text)))
    local = [target for target in targets if not re.match(r"[a-z]+://", target)]
    assert [target for target in local if not (ROOT / target).exists()] == []
    guide = {f"site/guide/{page.name}" for page in (ROOT / "site" / "guide").glob("*.md")}
    assert guide <= set(local), "the README links every guide page"
    assert {"ARCHITECTURE.md", "probes/ADD_PROBE.md", "advisor/data/README.md", SAMPLE_PROFILE} <= set(local)


def test_the_readme_install_section_names_the_torch_indexes_and_python_dash_m():
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Install into your own project") :].split("\n## ")[0]
    for index in ("download.pytorch.org/whl/cpu", "download.pytorch.org/whl/cu", "download.pytorch.org/whl/rocm"):
        assert index in section, index
    assert "torch>=2.4" in section and "python -m advisor" in section and "pip install /path/to/advisor" in section
