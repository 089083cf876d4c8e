"""The decision-record site's side of MkDocs: settings from the config, the generator's writer onto
mkdocs-gen-files' virtual files, and the hooks (named by `hooks:` in mkdocs.yml and the packaged config).

Settings: `extra.advisor` in the config (`site_settings`). Pages: mkdocs-gen-files runs mkdocs_pages.py,
which calls `generate_pages`. Hooks, the module-level `on_*` functions: every page's HTML passes the nh3
allowlist sanitizer (advisor/site/sanitize.py), and a page whose front matter starts with RENDERED_MARK
(advisor/site/rendered.py) is HTML already, so it is not converted again: `on_files` gives each such file a
`RenderedPage`, and MkDocs keeps a page that a plugin set on a file. Rendering one does what MkDocs'
Markdown pass would still have to do: links and image sources written as paths between source files become
URLs relative to the page (and a missing target is a warning, so `--strict` fails on it), the ids present
are collected for anchor validation, and the table of contents is read from the headings.

MkDocs loads the hooks from this file by its path, as a module of its own beside `advisor.site.mkdocs_plugin`:
everything here is definitions, so the second copy only serves the hooks.
"""

from __future__ import annotations

import datetime as dt
import html
import logging
import posixpath
import re
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from markdown.extensions.toc import nest_toc_tokens, strip_tags
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from advisor.dates import parse_date
from advisor.site.generate import GenerationReport, generate_site
from advisor.site.rendered import RENDERED_MARK, MarkdownSettings
from advisor.site.sanitize import on_page_content, on_post_page, on_post_template

# The config's `extra.advisor` keys a build reads.
RECORDS_KEY = "records_dir"
TODAY_KEY = "today"
# Under the `mkdocs` logger, so MkDocs counts these as warnings and --strict fails on them.
log = logging.getLogger("mkdocs.plugins.advisor")
LINKING_TAG = re.compile(r"<(a|img)\b[^>]*>")  # attribute values are escaped, so a tag ends at the first '>'
LINK_ATTRIBUTE = {"a": re.compile(r'(\shref=")([^"]*)(")'), "img": re.compile(r'(\ssrc=")([^"]*)(")')}
ID_ATTRIBUTE = re.compile(r'<[A-Za-z][^>]*?\sid="([^"]*)"')
HEADING = re.compile(r"<h([1-6])\b[^>]*?\sid=\"([^\"]*)\"[^>]*>(.*?)</h\1>", re.DOTALL)

__all__ = ["on_files", "on_page_content", "on_post_page", "on_post_template"]  # the hooks MkDocs reads


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
    """Settings for one build from the MkDocs config's `extra.advisor`: `records_dir` (relative to the config
    file; records/ beside it by default) and `today` (YYYY-MM-DD; today by default). `advisor site build` and
    `serve` set both in the config they load (`advisor_extra`), so nothing passes through the environment."""
    config_dir = Path(config.config_file_path).resolve().parent if config.config_file_path else Path.cwd()
    advisor = (config.extra or {}).get("advisor") or {}
    today = advisor.get(TODAY_KEY)
    return SiteSettings(records_dir=config_dir / advisor.get(RECORDS_KEY, "records"),
                        today=parse_date(str(today) if today else None, f"extra.advisor.{TODAY_KEY}"))


def advisor_extra(extra: Mapping[str, Any] | None, records_dir: Path | None, today: dt.date | None) -> dict[str, Any]:
    """A config's `extra.advisor` with the records folder and the date a build was asked for (None: the config's own)."""
    advisor = dict((extra or {}).get("advisor") or {})
    if records_dir is not None:
        advisor[RECORDS_KEY] = str(records_dir.resolve())
    if today is not None:
        advisor[TODAY_KEY] = today.isoformat()
    return advisor


def generate_pages() -> None:
    """Generate every record page, chart and evidence download into the build under way (mkdocs-gen-files' script,
    mkdocs_pages.py, calls it); a record or evidence file that cannot be used is a MkDocs warning and left out."""
    import mkdocs_gen_files

    settings = site_settings(mkdocs_gen_files.config)
    report = generate_site(settings.records_dir, GenFilesWriter(), today=settings.today,
                           markdown=MarkdownSettings.from_mkdocs(mkdocs_gen_files.config))
    settings.log_problems(report)


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
    files = _files_in_memory()
    if files is None:
        return False
    files[path] = File.generated(_editor().config, path, **source)
    return True


class RenderedPage(Page):
    """A page whose source is HTML made by the site generator."""

    def render(self, config: Any, files: Files) -> None:
        if self.markdown is None:
            raise RuntimeError(f"{self.file.src_uri}: the page's source was not read")
        links_to_anchors: dict[File, dict[str, str]] = {}

        def relink(tag: re.Match[str]) -> str:
            attribute = LINK_ATTRIBUTE[tag.group(1)]
            return attribute.sub(lambda value: value.group(1) + self._url(value.group(2), files, config, links_to_anchors)
                                 + value.group(3), tag.group(0), count=1)

        self.content = LINKING_TAG.sub(relink, self.markdown)
        self.toc = get_toc(_toc_tokens(self.content))
        self._title_from_render = None  # the front matter's title names the page
        self.present_anchor_ids = set(ID_ATTRIBUTE.findall(self.content))
        self.links_to_anchors = links_to_anchors

    def _url(self, url: str, files: Files, config: Any, links_to_anchors: dict[File, dict[str, str]]) -> str:
        """A link as the page's source wrote it (a path between source files, escaped for HTML), as a URL from the page;
        a missing target is logged at the config's `validation.links.not_found` level, as MkDocs does."""
        scheme, netloc, path, _, anchor = urlsplit(url)
        if scheme or netloc or url.startswith(("/", "\\")):
            return url
        if not path:
            if anchor:
                links_to_anchors.setdefault(self.file, {}).setdefault(anchor, url)
            return url
        target_uri = posixpath.normpath(posixpath.join(posixpath.dirname(self.file.src_uri), unquote(path)))
        target = files.get_file_from_path(target_uri)
        if target is None:
            log.log(config.validation.links.not_found, f"Doc file '{self.file.src_uri}' contains a link '{url}', but the "
                    f"target '{target_uri}' is not found among documentation files.")
            return url
        if anchor:
            links_to_anchors.setdefault(target, {}).setdefault(anchor, url)
        return target.url_relative_to(self.file) + (f"#{anchor}" if anchor else "")


def _toc_tokens(content: str) -> list[Any]:
    """Table-of-contents entries of the page's headings, nested by level (each heading's permalink left out)."""
    tokens = []
    for level, anchor, inner in HEADING.findall(content):
        own_link = re.compile(rf'<a\b[^>]*\shref="#{re.escape(anchor)}"[^>]*>.*?</a>', re.DOTALL)
        tokens.append({"level": int(level), "id": html.unescape(anchor), "name": strip_tags(own_link.sub("", inner)).strip(), "children": []})
    return nest_toc_tokens(tokens)


def on_files(files: Files, config: Any) -> Files:
    """MkDocs `on_files` hook (run after mkdocs-gen-files has generated the pages): a RenderedPage for every
    documentation file that is a rendered page."""
    for file in files.documentation_pages():
        if file.page is None and file.content_string.startswith(RENDERED_MARK):
            RenderedPage(None, file, config)
    return files
