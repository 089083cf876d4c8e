"""`advisor --help` and every command's `--help` stay light: judged by the modules they import, never by the clock.

Each help runs in a fresh interpreter under `python -X importtime`, which names every module imported.
Typer brings rich (its help panels); the library behind the commands, and what it brings (torch,
the pydantic models, jinja2, MkDocs, GitPython, YAML), is imported by a command's body, not its help.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# One command of each group and module, the groups themselves, and the root.
HELPS = [
    [],
    ["assess"],
    ["compare"],
    ["env"],
    ["ops"],
    ["probe"],
    ["recommend"],
    ["review"],
    ["schema"],
    ["kb"],
    ["kb", "check"],
    ["records"],
    ["records", "list"],
    ["site"],
    ["site", "build"],
]
# Top-level packages no help needs: torch and numpy, the models' pydantic, the site's jinja2, MkDocs and
# Material, GitPython (`git`), YAML, the sanitizer, onnx.
HEAVY_PACKAGES = {
    "torch",
    "numpy",
    "pydantic",
    "pydantic_core",
    "jinja2",
    "mkdocs",
    "material",
    "git",
    "yaml",
    "nh3",
    "onnx",
    "onnxruntime",
    "probes",
}
# The project's own modules that help may import: the CLI layer, the version and the error type.
# vocabulary (both): Literal tuples only, the choices help lists; terminal_text: the escaping streams every command
# runs in; interrupts: the entry point's signal handlers (stdlib only); probes.declarations: the reader of the probes'
# declarations (stdlib only), which gives `advisor probe` its options flags from the probes' source without importing
# a probe. The rest of probes is heavy.
LIGHT_OWN = {
    "advisor",
    "advisor.vocabulary",
    "advisor.interrupts",
    "probes",
    "probes._version",
    "probes.errors",
    "probes.vocabulary",
    "probes.terminal_text",
    "probes.declarations",
}


def imported_modules(arguments: list[str]) -> set[str]:
    """The modules `python -X importtime -m advisor ARGUMENTS --help` imports (it must exit 0 and print help)."""
    completed = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "advisor", *arguments, "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert "Usage:" in completed.stdout
    lines = [line for line in completed.stderr.splitlines() if line.startswith("import time:") and "|" in line]
    names = {line.rsplit("|", 1)[1].strip() for line in lines}
    assert "typer" in names, "no import times read: has the -X importtime format changed?"
    return names


def heavy_imports(names: set[str]) -> set[str]:
    """Those of `names` that help should not need."""
    heavy = {name for name in names if name.split(".")[0] in HEAVY_PACKAGES and name not in LIGHT_OWN}
    advisor = {
        name
        for name in names
        if name.split(".")[0] == "advisor" and name not in LIGHT_OWN and not name.startswith("advisor.cli")
    }
    return heavy | advisor


@pytest.mark.parametrize("arguments", HELPS, ids=lambda arguments: " ".join(arguments) or "advisor")
def test_help_imports_no_library(arguments: list[str]):
    """pydantic included: typer coerces a flag left out through pydantic; the groups' class (advisor/cli/group.py)
    keeps `--help` a plain bool, so a command's help costs no more than `advisor --help`."""
    assert heavy_imports(imported_modules(arguments)) == set()


def test_the_check_sees_a_heavy_import():
    names = {
        "typer",
        "advisor.cli",
        "advisor.cli.site",
        "advisor.site.build",
        "torch._C",
        "git.repo",
        "probes.errors",
        "probes.declarations",
        "probes.registry",
        "probes.environment.models",
    }
    assert heavy_imports(names) == {
        "advisor.site.build",
        "torch._C",
        "git.repo",
        "probes.registry",
        "probes.environment.models",
    }
