"""The published site's last line of defence: every page's rendered HTML through an allowlist sanitizer.

Record values are escaped when pages are generated and raw HTML in a hand-edited record body is
neutralized, but Markdown extensions (attr_list's `{ onclick=... }`, links to `javascript:` URLs) can
still turn text into active HTML. nh3 (the ammonia sanitizer) keeps only the elements, attributes and
URL schemes a documentation page needs: no script, no event handler, no style beyond text alignment,
no URL scheme but http, https and mailto (and relative links). Control characters (C0 but newline and tab,
DEL, C1) are dropped from the content and from the whole page the theme makes of it (its title, the
navigation): a record's hand-edited title must not carry them into a browser's tab or a saved page.
"""

from __future__ import annotations

from typing import Any

import nh3

from probes.terminal_text import without_controls

ALLOWED_TAGS = frozenset({
    "a", "abbr", "b", "blockquote", "br", "caption", "code", "col", "colgroup", "dd", "del", "details", "div", "dl",
    "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li",
    "mark", "ol", "p", "pre", "s", "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td",
    "tfoot", "th", "thead", "tr", "u", "ul",
})
ALLOWED_ATTRIBUTES = {
    "*": {"class", "id", "title"},
    "a": {"href", "title"},
    "img": {"src", "alt", "width", "height"},
    "td": {"align", "style", "colspan", "rowspan"},
    "th": {"align", "style", "colspan", "rowspan", "scope"},
    "ol": {"start"},
    "details": {"open"},
}
URL_SCHEMES = frozenset({"http", "https", "mailto"})
STYLE_PROPERTIES = frozenset({"text-align"})  # Markdown tables align their columns with it


def sanitize_html(html: str) -> str:
    """The HTML with everything outside the allowlist removed (script and style contents dropped whole)."""
    return nh3.clean(
        without_controls(html), tags=set(ALLOWED_TAGS), attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
        url_schemes=set(URL_SCHEMES), filter_style_properties=set(STYLE_PROPERTIES), link_rel=None,
        clean_content_tags={"script", "style"}, strip_comments=True,
    )


def on_page_content(html: str, **_: Any) -> str:
    """MkDocs hook: sanitize each page's content before the theme wraps it."""
    return sanitize_html(html)


def on_post_page(output: str, **_: Any) -> str:
    """MkDocs hook: the whole page as the theme wrote it (title, navigation, table of contents) without
    control characters; the theme has HTML-escaped the values already."""
    return without_controls(output)


def on_post_template(output_content: str, **_: Any) -> str:
    """MkDocs hook: a theme template written as it is (404.html, sitemap.xml) without control characters."""
    return without_controls(output_content)
