"""The project's own files: README commands exist and .ci/run calls the README's test command; mkdocs builds."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    block = re.search(r"## Set up and run.*?```bash\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert block, "README lost its set-up block"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_readme_has_exactly_two_commands_and_ci_runs_the_test_one():
    commands = readme_commands()
    assert len(commands) == 2
    for command in commands:
        assert (ROOT / command.split()[-1]).is_file()
    ci_lines = [line.strip() for line in (ROOT / ".ci/run").read_text().splitlines()]
    assert commands[1] in ci_lines


def test_mkdocs_builds_the_site_strictly(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "out")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Operator-stack decisions" in (tmp_path / "out" / "index.html").read_text()


def test_python_dash_m_advisor_prints_the_version():
    done = subprocess.run([sys.executable, "-m", "advisor", "--version"], capture_output=True, text=True, check=True)
    assert done.stdout.strip().startswith("advisor ")
