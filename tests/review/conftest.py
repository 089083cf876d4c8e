"""Fixtures of the review tests: a real git repository to keep records in."""

from __future__ import annotations

from pathlib import Path

import pytest
from git import Repo


@pytest.fixture
def empty_repo(tmp_path: Path) -> Repo:
    """A real, empty git repository with an identity configured."""
    repo = Repo.init(tmp_path / "project")
    with repo.config_writer() as config:
        config.set_value("user", "name", "Test")
        config.set_value("user", "email", "test@example.com")
    return repo
