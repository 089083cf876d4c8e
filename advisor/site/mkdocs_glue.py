"""The bridge between MkDocs and the generator: settings from the config and environment, and a writer
onto mkdocs-gen-files' virtual files."""

from __future__ import annotations

import datetime as dt
import logging
import os
from collections.abc import MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from advisor.dates import parse_date
from advisor.site.generate import GenerationReport
from probes.errors import AdvisorError

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
        """One MkDocs warning per file left out, or shown with something wrong in it."""
        for problem in report.problems:
            log.warning(f"advisor: {'skipped ' if problem.skipped else ''}{problem}")


def site_settings(config: Any) -> SiteSettings:
    """Settings for one build from the MkDocs config and the environment."""
    config_dir = Path(config.config_file_path).resolve().parent if config.config_file_path else Path.cwd()
    configured = ((config.extra or {}).get("advisor") or {}).get("records_dir", "records")
    records_dir = Path(os.environ.get(RECORDS_ENV) or config_dir / configured)
    return SiteSettings(records_dir=records_dir, today=parse_date(os.environ.get(TODAY_ENV), TODAY_ENV))


class GenFilesWriter:
    """A SiteWriter onto mkdocs-gen-files' virtual files, held in memory (files exist only inside the build).

    Each file is a MkDocs `File.generated`: text in memory, or a copied file read from where it is.
    Through `mkdocs_gen_files.open`, every page and chart would be written to a temporary folder, read
    back and deleted: thousands of file operations for a site of hundreds of records. gen-files has no
    public call for a file in memory, so these go into its map of the build's files; where that map is
    missing (another gen-files version), through `open` as before.
    """

    def write_text(self, path: str, text: str) -> None:
        if not _add_in_memory(path, content=text):
            with _editor().open(path, "w", encoding="utf-8") as handle:
                handle.write(text)

    def append_text(self, path: str, text: str) -> None:
        files = _files_in_memory()
        existing = files.get(path) if files is not None else None
        if not _add_in_memory(path, content=(existing.content_string if existing is not None else "") + text):
            with _editor().open(path, "a", encoding="utf-8") as handle:
                handle.write(text)

    def copy_file(self, path: str, source: Path) -> None:
        if not _add_in_memory(path, abs_src_path=str(source)):
            with _editor().open(path, "wb") as handle:
                handle.write(source.read_bytes())


def _editor() -> Any:
    """gen-files' editor of the build under way."""
    import mkdocs_gen_files

    return mkdocs_gen_files.FilesEditor.current()


def _files_in_memory() -> MutableMapping[str, Any] | None:
    """gen-files' map of the build's files by path (`FilesEditor._files`), or None where it has none."""
    files = getattr(_editor(), "_files", None)
    return files if isinstance(files, MutableMapping) else None


def _add_in_memory(path: str, **source: Any) -> bool:
    """Put `File.generated(path, content=... or abs_src_path=...)` in gen-files' map; False where there is no map."""
    from mkdocs.structure.files import File

    files = _files_in_memory()
    if files is None:
        return False
    files[path] = File.generated(_editor().config, path, **source)
    return True
