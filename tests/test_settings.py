"""Project settings: found from any subdirectory, relative to the project root, overridden by flags,
and every wrong file or value is a one-line error naming the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.settings import SettingsError, load_settings


def test_pyproject_tool_advisor_is_found_from_a_subdirectory(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.advisor]\nrecords_dir = "docs/decisions"\nbudget = 120\n'
    )
    deep = tmp_path / "src" / "pkg"
    deep.mkdir(parents=True)
    settings = load_settings(deep)
    assert settings.root == tmp_path.resolve()
    assert settings.records_dir() == tmp_path.resolve() / "docs" / "decisions"
    budget = settings.resolve("budget")
    assert budget.value == 120.0 and budget.source == "pyproject.toml [tool.advisor]"
    assert settings.resolve("budget", 30.0).source == "flag"
    assert settings.resolve("site_dir").value == tmp_path.resolve() / "site-build"
    assert settings.resolve("site_dir").source == "default"


def test_advisor_toml_wins_and_a_git_root_alone_anchors_the_defaults(tmp_path: Path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "sub").mkdir()
    assert load_settings(tmp_path / "sub").records_dir() == tmp_path.resolve() / "records"
    (tmp_path / "pyproject.toml").write_text("[tool.advisor]\nbudget = 10\n")
    (tmp_path / "advisor.toml").write_text('budget = 20\ndeciders = ["Ada", "Lin"]\nhardware = "nvidia-gpu"\n')
    settings = load_settings(tmp_path / "sub")
    assert settings.resolve("budget").value == 20.0 and settings.resolve("budget").source == "advisor.toml"
    assert settings.resolve("deciders").value == ["Ada", "Lin"] and settings.resolve("hardware").value == "nvidia-gpu"


def test_outside_any_project_the_current_folder_is_used(tmp_path: Path):
    settings = load_settings(tmp_path)  # pytest's temporary folders lie in no repository
    assert settings.root is None and settings.file is None
    assert settings.records_dir() == Path("records") and settings.resolve("records_dir").source == "default"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("budget = -1\n", "budget must be a positive number"),
        ("budget = true\n", "budget must be a positive number"),
        ("records = 'x'\n", "unknown key 'records'; allowed: records_dir"),
        ("deciders = 'Ada'\n", "deciders must be a list of names"),
        ("hardware = 'tpu9'\n", "hardware 'tpu9' is not a known hardware family"),
        ("records_dir = ''\n", "records_dir must be a non-empty string"),
        ("budget = \n", "not valid TOML"),
    ],
)
def test_a_wrong_settings_file_is_a_one_line_error_naming_file_and_key(tmp_path: Path, text: str, message: str):
    (tmp_path / "advisor.toml").write_text(text)
    with pytest.raises(SettingsError, match=message) as raised:
        load_settings(tmp_path)
    assert str(raised.value).startswith(str(tmp_path.resolve() / "advisor.toml")) and "\n" not in str(raised.value)
