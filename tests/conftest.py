"""Shared fixtures: a CLI runner, fake vendor tools on PATH, and an empty git repository."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from browser_skip import browser_skips, summary_line
from git import Repo
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


@pytest.fixture
def environment_factory():
    """Build a hand-made Environment (an AVX-512 CPU at 2 GHz, 4 cores) without detecting anything."""
    from datetime import datetime, timezone

    from probes.environment.models import (
        AcceleratorRuntime,
        CPUInfo,
        Environment,
        ISAFeatures,
        OSInfo,
        PythonInfo,
    )
    from probes.environment.peaks import cpu_peak

    def build(with_peaks: bool = True, **overrides: object) -> Environment:
        cpu = CPUInfo(
            architecture="x86_64",
            model_name="Test Xeon",
            physical_cores=4,
            logical_cores=8,
            clock_ghz=2.0,
            clock_source="test",
            isa=ISAFeatures(avx2=True, fma=True, avx512f=True, avx512_vnni=True, source="/proc/cpuinfo"),
        )
        fields: dict[str, object] = dict(
            captured_at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc),
            advisor_version="0.1.0",
            hostname_hash="0123456789abcdef",
            os=OSInfo(system="Linux", kernel="6.0", machine="x86_64"),
            python=PythonInfo(version="3.11.7", implementation="CPython"),
            cpu=cpu,
            accelerators=AcceleratorRuntime(),
            peaks=[cpu_peak(cpu)] if with_peaks else [],
        )
        fields.update(overrides)
        return Environment(**fields)

    return build


@pytest.fixture
def empty_repo(tmp_path: Path) -> Repo:
    """A real, empty git repository with an identity configured."""
    repo = Repo.init(tmp_path / "project")
    with repo.config_writer() as config:
        config.set_value("user", "name", "Test")
        config.set_value("user", "email", "test@example.com")
    return repo


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """The random order's seed, last and even under -q (scripts/test.sh, CI), so that a failing order can be rerun:
    pytest-randomly names it only in the header, which -q hides."""
    if not config.pluginmanager.hasplugin("randomly"):
        return  # -p no:randomly: the files' own order
    seed = config.getoption("randomly_seed", None)
    if isinstance(seed, int):
        terminalreporter.write_line(f"random order seed {seed}: rerun this order with --randomly-seed={seed}")


def pytest_unconfigure(config: pytest.Config) -> None:
    """Browser tests skipped for a missing Chromium are counted on the run's very last line (after pytest's own
    tally), with how to install it: `bash scripts/test.sh` must not skip them without a word."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    count = browser_skips(reporter.stats.get("skipped", []))
    if count:
        reporter.write_line(summary_line(count), yellow=True, bold=True)
