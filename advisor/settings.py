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
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from advisor.errors import AdvisorError
from advisor.output_paths import OutputPathError, check_inside

SETTINGS_FILE = "advisor.toml"
PYPROJECT = "pyproject.toml"
KEYS = ("records_dir", "budget", "site_dir", "deciders", "hardware")
PATH_KEYS = ("records_dir", "site_dir")
DEFAULTS: dict[str, Any] = {"records_dir": "records", "budget": 60.0, "site_dir": "site-build", "deciders": [], "hardware": None}
MAX_SETTINGS_BYTES = 64 * 1024


class SettingsError(AdvisorError):
    """A settings file that cannot be read or holds a wrong key or value; the message names file and key."""


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
            where = f"{self.file.name} [tool.advisor]" if self.file and self.file.name == PYPROJECT else str(self.file and self.file.name)
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


def _declares_settings(pyproject: Path) -> bool:
    try:
        return "advisor" in tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False


def find_root(start: Path) -> tuple[Path | None, Path | None]:
    """(project root, settings file) from `start` upwards; the first folder with settings or a .git wins."""
    for folder in [start.resolve(), *start.resolve().parents]:
        if (folder / SETTINGS_FILE).is_file():
            return folder, folder / SETTINGS_FILE
        if (folder / PYPROJECT).is_file() and _declares_settings(folder / PYPROJECT):
            return folder, folder / PYPROJECT
        if (folder / ".git").exists():
            return folder, None
    return None, None


def _read_table(path: Path) -> dict[str, Any]:
    if path.stat().st_size > MAX_SETTINGS_BYTES:
        raise SettingsError(f"{path}: larger than {MAX_SETTINGS_BYTES // 1024} KiB; is it a settings file?")
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise SettingsError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(f"{path}: not valid TOML: {error}") from None
    table = document.get("tool", {}).get("advisor", {}) if path.name == PYPROJECT else document
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
        raise SettingsError(f"{path}: hardware {hardware!r} is not a known hardware family; allowed: {', '.join(known)}")


def load_settings(start: Path | None = None) -> ProjectSettings:
    """The project settings seen from `start` (the current folder by default)."""
    root, file = find_root(start or Path.cwd())
    if file is None:
        return ProjectSettings(root, None, {})
    return ProjectSettings(root, file, _checked(file, _read_table(file)))
