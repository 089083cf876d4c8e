"""Record and evidence pages rendered to HTML by the generator, once, instead of by MkDocs page by page.

Converting a record page and its evidence page with Python-Markdown took about 17 ms of a 500-record build's 30
ms per record, most of it on tables that the generator had just made from structured data. Here a page is a
`PageSource`: Markdown for what is prose (the record body, headings, a back link) and ready HTML blocks for the
tables, lists of findings and figures, stood in for by placeholders while one reused Markdown converter,
configured with the site's own extensions, renders the prose. The page written to MkDocs is front matter marked
`RENDERED_MARK` followed by HTML; `advisor/site/mkdocs_plugin.py` takes such pages as they are (links made
relative, the table of contents read from the headings).
"""

from __future__ import annotations

import html
import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from probes.errors import AdvisorError

# The first line of a rendered page's front matter: how the MkDocs side tells it from a Markdown page.
RENDERED_KEY, RENDERED_VALUE = "advisor", "rendered-html"
RENDERED_MARK = f"---\n{RENDERED_KEY}: {RENDERED_VALUE}\n"
MKDOCS_BUILTIN_EXTENSIONS = ("toc", "tables", "fenced_code")  # MkDocs adds these to every site's list
BASE_CONFIG = Path(__file__).parent / "mkdocs-base.yml"


class RenderError(AdvisorError):
    """A generated page could not be rendered (a Markdown extension dropped a placeholder)."""


@dataclass(frozen=True)
class MarkdownSettings:
    """The Markdown extensions (names) and their settings that the site's pages are rendered with."""

    extensions: tuple[str, ...]
    configs: Mapping[str, Mapping[str, Any]]

    @classmethod
    def from_mkdocs(cls, config: Any) -> MarkdownSettings:
        """The settings of the MkDocs build under way (`markdown_extensions`, with MkDocs' built-ins)."""
        return cls(extensions=tuple(config["markdown_extensions"]), configs=dict(config["mdx_configs"] or {}))

    @classmethod
    def packaged(cls) -> MarkdownSettings:
        """The settings of the packaged site config (advisor/site/mkdocs-base.yml), for generation outside MkDocs."""
        listed = yaml.safe_load(BASE_CONFIG.read_text(encoding="utf-8"))["markdown_extensions"]
        extensions, configs = list(MKDOCS_BUILTIN_EXTENSIONS), {}
        for entry in listed:
            name, settings = next(iter(entry.items())) if isinstance(entry, dict) else (entry, None)
            if name not in extensions:
                extensions.append(name)
            if settings:
                configs[name] = settings
        return cls(extensions=tuple(extensions), configs=configs)


@dataclass
class PageSource:
    """A page being put together: Markdown lines, with HTML blocks set aside behind placeholder paragraphs.

    A placeholder is a paragraph of letters and digits with a random part, so no record text can forge one.
    """

    lines: list[str] = field(default_factory=list)
    blocks: dict[str, str] = field(default_factory=dict)
    _nonce: str = field(default_factory=lambda: secrets.token_hex(8))

    def markdown(self, *lines: str) -> None:
        """Lines of Markdown, as they are."""
        self.lines.extend(lines)

    def html(self, block: str) -> None:
        """A block of ready HTML (escaped by its maker), as its own paragraph of the page."""
        placeholder = f"advisorblock{self._nonce}n{len(self.blocks)}"
        self.blocks[placeholder] = block
        self.lines.extend(["", placeholder, ""])


class PageConverter:
    """One Markdown converter with the site's extensions, reused for every generated page."""

    def __init__(self, settings: MarkdownSettings) -> None:
        import markdown  # only the site generation needs it

        self._markdown = markdown.Markdown(
            extensions=list(settings.extensions),
            extension_configs={name: dict(values) for name, values in settings.configs.items()},
        )

    def convert(self, source: PageSource) -> str:
        """The page's HTML: its Markdown rendered, each placeholder paragraph replaced by its block."""
        self._markdown.reset()
        rendered = self._markdown.convert("\n".join(source.lines))
        for placeholder, block in source.blocks.items():
            paragraph = f"<p>{placeholder}</p>"
            if paragraph in rendered:
                rendered = rendered.replace(paragraph, block, 1)
            elif placeholder in rendered:  # inside something the Markdown above it left open: the block still shows
                rendered = rendered.replace(placeholder, block, 1)
            else:
                raise RenderError(f"site page: a Markdown extension dropped an HTML block of the page ({placeholder})")
        return rendered


def meta_yaml(meta: Mapping[str, object]) -> str:
    """Front matter fields as YAML lines (the one writer for generated pages, Markdown or rendered)."""
    return yaml.safe_dump(dict(meta), allow_unicode=True, width=1000) if meta else ""


def rendered_page(meta: Mapping[str, object], body_html: str) -> str:
    """A page file for MkDocs: front matter that starts with RENDERED_MARK (then `meta`), and the HTML."""
    return f"{RENDERED_MARK}{meta_yaml(meta)}---\n\n{body_html}\n"


def text(value: object) -> str:
    """Text escaped for HTML, on one line."""
    return html.escape(" ".join(str(value).split()))


def prose(value: object) -> str:
    """Text escaped for HTML, on one line, with the spans it quotes in backticks shown as inline code."""
    parts = re.split(r"`([^`]{1,200})`", " ".join(str(value).split()))
    return "".join(code(part) if index % 2 else html.escape(part) for index, part in enumerate(parts))


def code(value: object) -> str:
    """Inline code."""
    return f"<code>{text(value)}</code>"


def link(href: str, label_html: str) -> str:
    """A link; `href` is a path relative to the page's source file (made a site URL by MkDocs) or a full URL."""
    return f'<a href="{html.escape(href)}">{label_html}</a>'


def image(src: str, alt: str, css_class: str) -> str:
    """An image in its own paragraph."""
    return f'<p><img alt="{html.escape(alt)}" class="{html.escape(css_class)}" src="{html.escape(src)}"></p>'


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A table of HTML cells under a header row of HTML cells."""
    head = "".join(f"<th>{cell}</th>" for cell in header)
    body = "\n".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table>\n<thead>\n<tr>{head}</tr>\n</thead>\n<tbody>\n{body}\n</tbody>\n</table>"


def bullets(items_html: Iterable[str]) -> str:
    """A bulleted list of HTML items."""
    return "<ul>\n" + "\n".join(f"<li>{item}</li>" for item in items_html) + "\n</ul>"


def row_header_table(rows: Iterable[tuple[str, str]]) -> str:
    """A two-column table without a header row: each row's name (the page's own words) in a row header."""
    body = "\n".join(f'<tr><th scope="row">{name}</th><td>{value}</td></tr>' for name, value in rows)
    return f"<table>\n<tbody>\n{body}\n</tbody>\n</table>"
