"""Escaping text for Markdown pages (records, the site, the README's generated tables)."""

from __future__ import annotations

import re

_ESCAPED = re.compile(r"([\\`*_\[\]|])")
_URL_UNSAFE = {"(": "%28", ")": "%29", "<": "%3C", ">": "%3E", '"': "%22", "'": "%27", "`": "%60"}


def md_escape(value: object) -> str:
    """Text safe inside Markdown and HTML: entities for < > &, backslashes before markup, one line."""
    text = " ".join(str(value).split())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _ESCAPED.sub(r"\\\1", text)
    if text.startswith("#"):
        text = "\\" + text
    return text


def safe_url(url: str) -> str:
    """A URL that cannot end a Markdown link early or carry markup."""
    return "".join(_URL_UNSAFE.get(character, character) for character in url)
