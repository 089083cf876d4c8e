"""`bash scripts/test.sh` (the README's test command, which .ci/run calls) installs the site tests' browser before
pytest where it can, and still runs the suite where it cannot. Run with stand-ins: a fake venv whose python records
its arguments, and a PATH without Chromium whose apt-get records its own (and whose sudo asks no password)."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ("bash", "sh", "cat", "cut", "dirname", "grep", "id", "sha256sum")  # what the scripts call, Chromium not


def _stub(path: Path, body: str) -> None:
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


@pytest.fixture
def stand_ins(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """The environment for test.sh, and the log its stand-ins append to."""
    log, bin_dir, venv = tmp_path / "calls.log", tmp_path / "bin", tmp_path / "venv"
    bin_dir.mkdir()
    (venv / "bin").mkdir(parents=True)
    for tool in TOOLS:
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    _stub(bin_dir / "apt-get", f'echo "apt-get $*" >> {log}; exit "${{APT_STATUS:-0}}"')
    _stub(bin_dir / "sudo", 'shift; exec "$@"')  # password-less: `sudo -n CMD` runs CMD (as the same user here)
    _stub(venv / "bin" / "python", f'echo "python $*" >> {log}')
    project_hash = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    (venv / ".advisor-install-stamp").write_text(f"{project_hash} test")  # set up already: nothing to install
    env = {"PATH": str(bin_dir), "ADVISOR_VENV": str(venv), "HOME": str(tmp_path)}
    return env, log


def _run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [shutil.which("bash") or "bash", "scripts/test.sh", "-k", "env"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_browser_is_installed_before_the_suite_runs(stand_ins: tuple[dict[str, str], Path]):
    env, log = stand_ins
    done = _run(env)
    assert done.returncode == 0, done.stderr
    calls = log.read_text().splitlines()
    installs = [n for n, call in enumerate(calls) if call.startswith("apt-get install") and "chromium-driver" in call]
    suite = [n for n, call in enumerate(calls) if call == "python -m pytest -q -n 2 --dist loadfile -k env"]
    assert installs and suite and installs[0] < suite[0], calls


def test_the_suite_still_runs_when_the_browser_cannot_be_installed(stand_ins: tuple[dict[str, str], Path]):
    env, log = stand_ins
    done = _run({**env, "APT_STATUS": "100"})
    assert done.returncode == 0, done.stderr
    assert "python -m pytest -q -n 2 --dist loadfile -k env" in log.read_text().splitlines()
    assert "apt-get could not install chromium" in done.stderr and "its tests will say so" in done.stderr


def test_ci_requires_the_browser_and_runs_the_test_command_once():
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    (require,) = [n for n, line in enumerate(lines) if line.startswith("export ADVISOR_REQUIRE_BROWSER=1")]
    assert require < lines.index("bash scripts/test.sh")
    assert "bash scripts/install_browser.sh" not in lines  # test.sh installs it
