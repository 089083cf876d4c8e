"""The static checks CI keeps: mypy (with the pydantic plugin, configured in pyproject.toml) passes on
advisor/ and probes/, the import contracts of pyproject.toml (the layers ARCHITECTURE.md draws) hold, and the
code is as `ruff format` writes it and passes `ruff check` (line length, import order: pyproject.toml)."""

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


def test_ruff_format_and_check_pass():
    ruff = Path(sys.executable).with_name("ruff")  # the pinned ruff of the test extra, beside python
    formatted = subprocess.run(
        [str(ruff), "format", "--check", "."], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert formatted.returncode == 0, formatted.stdout[-4000:] + formatted.stderr[-2000:]
    checked = subprocess.run(
        [str(ruff), "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert checked.returncode == 0, checked.stdout[-4000:] + checked.stderr[-2000:]


def test_the_import_layers_hold():
    lint_imports = Path(sys.executable).with_name("lint-imports")  # import-linter's console script, beside python
    result = subprocess.run([str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-4000:]
    assert "0 broken" in result.stdout


def _probes_layers() -> list[str]:
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    (layers,) = [contract["layers"] for contract in contracts if contract.get("containers") == ["probes"]]
    return layers


def test_every_part_of_probes_has_a_place_in_the_layer_contract():
    listed = {part.strip() for layer in _probes_layers() for part in layer.split(":")}
    parts = {
        path.stem
        for path in (ROOT / "probes").iterdir()
        if (path.suffix == ".py" and path.stem != "__init__") or (path / "__init__.py").is_file()
    }
    assert parts - listed == set(), "add these to the probes layers contract in pyproject.toml"
    assert listed - parts == set()


def test_no_cycle_between_the_probe_folders_that_share_a_layer():
    import grimp

    graph = grimp.build_graph("probes", exclude_type_checking_imports=True)
    for layer in _probes_layers():
        siblings = [f"probes.{part.strip()}" for part in layer.split(":")]
        for first in siblings:
            for second in siblings:
                if first < second:
                    both = graph.chain_exists(first, second, as_packages=True) and graph.chain_exists(
                        second, first, as_packages=True
                    )
                    assert not both, f"{first} and {second} import each other"
