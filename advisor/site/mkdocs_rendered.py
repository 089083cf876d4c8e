"""MkDocs' side of the rendered pages (advisor/site/rendered.py): a page whose front matter starts with
RENDERED_MARK is HTML already, so it is not converted again.

`adopt_rendered_pages` (an `on_files` hook, run after mkdocs-gen-files has generated the pages) gives each
such file a `RenderedPage`; MkDocs keeps a page that a plugin set on a file. Rendering one does what MkDocs'
Markdown pass would still have to do: links and image sources written as paths between source files become
URLs relative to the page (and a missing target is a warning, so `--strict` fails on it), the ids present
are collected for anchor validation, and the table of contents is read from the headings.
"""

from __future__ import annotations

import html
import logging
import posixpath
import re
from typing import Any
from urllib.parse import unquote, urlsplit

from markdown.extensions.toc import nest_toc_tokens, strip_tags
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from advisor.site.rendered import RENDERED_MARK

log = logging.getLogger("mkdocs.plugins.advisor")
LINKING_TAG = re.compile(r"<(a|img)\b[^>]*>")  # attribute values are escaped, so a tag ends at the first '>'
LINK_ATTRIBUTE = {"a": re.compile(r'(\shref=")([^"]*)(")'), "img": re.compile(r'(\ssrc=")([^"]*)(")')}
ID_ATTRIBUTE = re.compile(r'<[A-Za-z][^>]*?\sid="([^"]*)"')
HEADING = re.compile(r"<h([1-6])\b[^>]*?\sid=\"([^\"]*)\"[^>]*>(.*?)</h\1>", re.DOTALL)


class RenderedPage(Page):
    """A page whose source is HTML made by the site generator."""

    def render(self, config: Any, files: Files) -> None:
        if self.markdown is None:
            raise RuntimeError(f"{self.file.src_uri}: the page's source was not read")
        links_to_anchors: dict[File, dict[str, str]] = {}

        def relink(tag: re.Match[str]) -> str:
            attribute = LINK_ATTRIBUTE[tag.group(1)]
            return attribute.sub(lambda value: value.group(1) + self._url(value.group(2), files, config, links_to_anchors)
                                 + value.group(3), tag.group(0), count=1)  # fmt: skip

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
                    f"target '{target_uri}' is not found among documentation files.")  # fmt: skip
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


def adopt_rendered_pages(files: Files, config: Any) -> Files:
    """MkDocs `on_files` hook: a RenderedPage for every documentation file that is a rendered page."""
    for file in files.documentation_pages():
        if file.page is None and file.content_string.startswith(RENDERED_MARK):
            RenderedPage(None, file, config)
    return files
