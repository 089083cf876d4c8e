"""Escaping text for Markdown pages (records, the site, the README's generated tables)."""

from __future__ import annotations

import re

_ESCAPED = re.compile(r"([\\`*_\[\]|{}])")  # braces too: record text never reaches attr_list
_URL_UNSAFE = {"(": "%28", ")": "%29", "<": "%3C", ">": "%3E", '"': "%22", "'": "%27", "`": "%60"}


def md_escape(value: object) -> str:
    """Text safe inside Markdown and HTML: entities for < > &, backslashes before markup, one line."""
    text = " ".join(str(value).split())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _ESCAPED.sub(r"\\\1", text)
    if text.startswith("#"):
        text = "\\" + text
    return text


_OPERATOR = re.compile(r"(>=|<=|->|(?<![\w-])[<>](?=\s*[\d~.-]))")


# A span the text itself quotes as code ('run `advisor probe` there'): kept a code span, whose content Markdown
# shows as written (no markup, no HTML), instead of escaped backticks that the site would show literally.
_CODE_SPAN = r"`[^`\n]{1,200}`"
_PROSE_SPECIAL = re.compile(f"({_CODE_SPAN}|{_OPERATOR.pattern[1:-1]})")


def md_prose(value: object) -> str:
    """Like md_escape, but comparison operators and arrows ('>= 1.5x', 'a -> b') go into code spans, and spans the
    text quotes in backticks stay code spans, so the raw Markdown reads them as written instead of as HTML
    entities or literal backticks."""
    parts = _PROSE_SPECIAL.split(" ".join(str(value).split()))
    return "".join(
        (part if part.startswith("`") else f"`{part}`") if index % 2 else _escape_keeping_edges(part)
        for index, part in enumerate(parts)
    )


def _escape_keeping_edges(part: str) -> str:
    """md_escape of a piece of a sentence, keeping the spaces at its ends; a leading '#' is escaped only at the start."""
    if not part.strip():
        return part
    lead, trail = part[: len(part) - len(part.lstrip())], part[len(part.rstrip()) :]
    return lead + md_escape(part.strip()) + trail


def safe_url(url: str) -> str:
    """A URL that cannot end a Markdown link early or carry markup."""
    return "".join(_URL_UNSAFE.get(character, character) for character in url)
