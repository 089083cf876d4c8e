"""The bridge between MkDocs and the generator: settings from the config and environment, and a writer
onto mkdocs-gen-files' virtual files."""

from __future__ import annotations

import datetime as dt
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from advisor.dates import parse_date
from advisor.errors import AdvisorError
from advisor.site.generate import GenerationReport

RECORDS_ENV = "ADVISOR_SITE_RECORDS"
TODAY_ENV = "ADVISOR_SITE_TODAY"
# Under the `mkdocs` logger, so MkDocs counts these as warnings and --strict fails on them.
log = logging.getLogger("mkdocs.plugins.advisor")


class SiteError(AdvisorError):
    """The site cannot be built as asked; the message names the option, file or setting."""


@dataclass(frozen=True)
class SiteSettings:
    """Where the records are and the date reviews are judged against."""

    records_dir: Path
    today: dt.date

    def log_problems(self, report: GenerationReport) -> None:
        """One MkDocs warning per file left out."""
        for problem in report.problems:
            log.warning(f"advisor: skipped {problem}")


def site_settings(config: Any) -> SiteSettings:
    """Settings for one build from the MkDocs config and the environment."""
    config_dir = Path(config.config_file_path).resolve().parent if config.config_file_path else Path.cwd()
    configured = ((config.extra or {}).get("advisor") or {}).get("records_dir", "records")
    records_dir = Path(os.environ.get(RECORDS_ENV) or config_dir / configured)
    return SiteSettings(records_dir=records_dir, today=parse_date(os.environ.get(TODAY_ENV), TODAY_ENV))


class GenFilesWriter:
    """A SiteWriter onto mkdocs-gen-files (files exist only inside the build)."""

    def write_text(self, path: str, text: str) -> None:
        import mkdocs_gen_files

        with mkdocs_gen_files.open(path, "w", encoding="utf-8") as handle:
            handle.write(text)

    def append_text(self, path: str, text: str) -> None:
        import mkdocs_gen_files

        with mkdocs_gen_files.open(path, "a", encoding="utf-8") as handle:
            handle.write(text)

    def copy_file(self, path: str, source: Path) -> None:
        import mkdocs_gen_files

        with mkdocs_gen_files.open(path, "wb") as handle:
            handle.write(source.read_bytes())
