"""Project settings: what a team would otherwise type on every command, kept in its repository.

Read from `advisor.toml` at the project root, or from `[tool.advisor]` in the root's `pyproject.toml`
(advisor.toml wins when both exist). The root is found from any subdirectory: the nearest folder
upwards with an `advisor.toml`, a `pyproject.toml` holding `[tool.advisor]`, or a `.git`. Relative
paths in the settings are relative to the root, so `advisor records list` finds the same records
from anywhere in the repository. A flag always overrides a setting; `advisor config` shows each
effective value and where it came from.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomllib

from probes.errors import AdvisorError
from probes.files.bounded_read import FileKind, read_bounded_text
from probes.files.output_paths import OutputPathError, check_inside

SETTINGS_FILE = "advisor.toml"
PYPROJECT = "pyproject.toml"
KEYS = ("records_dir", "budget", "site_dir", "deciders", "hardware")
PATH_KEYS = ("records_dir", "site_dir")
DEFAULTS: dict[str, Any] = {
    "records_dir": "records",
    "budget": 60.0,
    "site_dir": "site-build",
    "deciders": [],
    "hardware": None,
}
MAX_SETTINGS_BYTES = 64 * 1024
MAX_PYPROJECT_BYTES = 1 << 20  # pyproject.toml holds every tool's settings; large ones are tens of KB


class SettingsError(AdvisorError):
    """A settings file that cannot be read or holds a wrong key or value; the message names file and key."""


SETTINGS_KINDS = {
    SETTINGS_FILE: FileKind("settings file", MAX_SETTINGS_BYTES, SettingsError),
    PYPROJECT: FileKind("pyproject.toml", MAX_PYPROJECT_BYTES, SettingsError),
}


@dataclass(frozen=True)
class Setting:
    """One effective value and where it came from: 'flag', a settings file (with its table), or 'default'."""

    value: Any
    source: str


@dataclass(frozen=True)
class ProjectSettings:
    """The values a settings file gives (absent keys are not there), the root and the file they came from."""

    root: Path | None
    file: Path | None
    values: dict[str, Any]

    def resolve(self, key: str, flag: Any = None) -> Setting:
        """`flag` when given, else the file's value, else the default; paths are made absolute against the root."""
        if flag is not None:
            return Setting(flag, "flag")
        if key in self.values:
            where = (
                f"{self.file.name} [tool.advisor]"
                if self.file and self.file.name == PYPROJECT
                else str(self.file and self.file.name)
            )
            return Setting(self._absolute(key, self.values[key]), where)
        return Setting(self._absolute(key, DEFAULTS[key]), "default")

    def _absolute(self, key: str, value: Any) -> Any:
        """A folder setting made absolute against the root; it must stay inside the root (symbolic links
        followed), so a committed settings file cannot send records or a site build elsewhere."""
        if key not in PATH_KEYS or value is None:
            return value
        path = Path(value).expanduser()
        if self.root is None:
            return path
        if key in self.values and self.file is not None:
            source, hint = f"{self.file}: {key}", ""
        else:
            flag = "--records-dir" if key == "records_dir" else "--out"
            source, hint = f"the default {key}", f"pass {flag} {(self.root / path).resolve()} to use it all the same"
        try:
            return check_inside(path, self.root, source, hint)
        except OutputPathError as error:
            raise SettingsError(str(error)) from None

    def records_dir(self, flag: Path | None = None) -> Path:
        """The records folder: --records-dir, else records_dir, else <root>/records (./records outside a project)."""
        return Path(self.resolve("records_dir", flag).value)

    def effective(self) -> dict[str, Setting]:
        """Every key's effective value without flags: what `advisor config` shows."""
        return {key: self.resolve(key) for key in KEYS}


def _read_document(path: Path) -> dict[str, Any]:
    """The TOML document of advisor.toml or pyproject.toml; SettingsError naming the file when it is not a
    regular file, too large, not UTF-8 or not TOML (never ignored: the run would go on without its settings)."""
    text = read_bounded_text(path, SETTINGS_KINDS[path.name])
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:
        raise SettingsError(f"{path}: nested too deeply to be a settings file") from None
    except ValueError as error:  # an integer past Python's 4,300 digits
        raise SettingsError(f"{path}: not valid TOML ({str(error).split(':')[0]})") from None


def _declares_settings(pyproject: Path) -> bool:
    tool = _read_document(pyproject).get("tool", {})
    return isinstance(tool, dict) and "advisor" in tool


def find_root(start: Path) -> tuple[Path | None, Path | None]:
    """(project root, settings file) from `start` upwards; the first folder with settings or a .git wins.
    A settings file that does not read is a SettingsError, not a folder without settings."""
    for folder in [start.resolve(), *start.resolve().parents]:
        if os.path.lexists(folder / SETTINGS_FILE):  # a dangling link or a FIFO is an error, not "no settings"
            return folder, folder / SETTINGS_FILE
        if os.path.lexists(folder / PYPROJECT) and _declares_settings(folder / PYPROJECT):
            return folder, folder / PYPROJECT
        if (folder / ".git").exists():
            return folder, None
    return None, None


def _read_table(path: Path) -> dict[str, Any]:
    table: object = _read_document(path)
    if path.name == PYPROJECT:
        tool = table.get("tool") if isinstance(table, dict) else None
        table = tool.get("advisor", {}) if isinstance(tool, dict) else {}
    if not isinstance(table, dict):
        raise SettingsError(f"{path}: [tool.advisor] must be a table")
    return table


def _checked(path: Path, table: dict[str, Any]) -> dict[str, Any]:
    """The table's values, each checked; SettingsError naming the file and key otherwise."""
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise SettingsError(f"{path}: unknown key {unknown[0]!r}; allowed: {', '.join(KEYS)}")
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key in ("records_dir", "site_dir", "hardware"):
            if not isinstance(value, str) or not value.strip():
                raise SettingsError(f"{path}: {key} must be a non-empty string, got {value!r}")
        elif key == "budget":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
                raise SettingsError(f"{path}: budget must be a positive number of seconds, got {value!r}")
            value = float(value)
        elif key == "deciders":
            if not isinstance(value, list) or not all(isinstance(name, str) and name.strip() for name in value):
                raise SettingsError(f"{path}: deciders must be a list of names, got {value!r}")
        values[key] = value
    if "hardware" in values:
        _check_hardware(path, values["hardware"])
    return values


def _check_hardware(path: Path, hardware: str) -> None:
    from advisor.knowledge.loader import hardware_families

    known = sorted(hardware_families())
    if hardware not in known:
        raise SettingsError(
            f"{path}: hardware {hardware!r} is not a known hardware family; allowed: {', '.join(known)}"
        )


def load_settings(start: Path | None = None) -> ProjectSettings:
    """The project settings seen from `start` (the current folder by default)."""
    root, file = find_root(start or Path.cwd())
    if file is None:
        return ProjectSettings(root, None, {})
    return ProjectSettings(root, file, _checked(file, _read_table(file)))
