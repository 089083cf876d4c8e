"""The static checks CI keeps: mypy (with the pydantic plugin, configured in pyproject.toml) passes on
advisor/ and probes/, and the import contracts of pyproject.toml (the layers ARCHITECTURE.md draws) hold."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=900)


def test_mypy_passes_on_advisor_and_probes(tmp_path: Path):
    result = _run("mypy", "advisor", "probes", "--cache-dir", str(tmp_path / "mypy-cache"))
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def test_the_import_layers_hold():
    lint_imports = Path(sys.executable).with_name("lint-imports")  # import-linter's console script, beside python
    result = subprocess.run([str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-4000:]
    assert "0 broken" in result.stdout
