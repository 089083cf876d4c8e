"""Shared fixtures: a CLI runner and fake vendor tools on PATH."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def fake_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Put an executable `name` on PATH that prints `output` (stands in for nvidia-smi, npu-smi)."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")

    def install(name: str, output: str) -> Path:
        data = bin_dir / f"{name}.out"
        data.write_text(output)
        script = bin_dir / name
        script.write_text(f"#!/bin/sh\ncat '{data}'\n")
        script.chmod(script.stat().st_mode | stat.S_IEXEC)
        return script

    return install
