"""Fixtures of the site tests: the records repository (site_records.py), a damaged copy, the site built once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from site_records import CONFIG, TODAY, RecordsFixture, make_records


@pytest.fixture(scope="session")
def site_records(tmp_path_factory: pytest.TempPathFactory) -> RecordsFixture:
    return make_records(tmp_path_factory.mktemp("site-records") / "project")


@pytest.fixture
def records_copy(site_records: RecordsFixture, tmp_path: Path) -> Path:
    """A private copy of the records folder (no git) that a test may damage."""
    target = tmp_path / "records"
    shutil.copytree(site_records.records_dir, target)
    return target


@pytest.fixture(scope="session")
def built_site(site_records: RecordsFixture, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture records built with the project's mkdocs.yml, strict."""
    from advisor.site.build import build_site

    out = tmp_path_factory.mktemp("site-out") / "site"
    build_site(CONFIG, out=out, records_dir=site_records.records_dir, strict=True, today=TODAY)
    return out
