"""The knowledge base as Markdown tables: platforms and candidates, each with its source as a link and the
date it was checked (`advisor kb list --markdown`; the site's guide page site/guide/knowledge-base.md holds this
output)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from advisor.knowledge.claims import Claim, method_anchor
from advisor.knowledge.method import method_sections
from advisor.knowledge.models import KnowledgeBase
from advisor.markdown import md_escape, safe_url

# The tables sit on a guide page of the site (site/guide/), one folder below the generated method page.
GUIDE_METHOD_LINK = "../method.md"


def source_link(source: str, method_href: str) -> str:
    """A claim's source as a Markdown link: a method section to `method_href#anchor` (the site's method page,
    which renders the anchors), a URL to itself."""
    anchor = method_anchor(source)
    if anchor is not None:
        titles = {section.anchor: section.title for section in method_sections()}
        return f"[method: {md_escape(titles.get(anchor, anchor))}]({method_href}#{anchor})"
    parts = urlsplit(source)
    shown = parts.netloc + parts.path.rstrip("/") + (f"#{parts.fragment}" if parts.fragment else "")
    return f"[{md_escape(shown)}]({safe_url(source)})"


def checked(claims: dict[str, Claim[Any]]) -> str:
    """The oldest `as_of` of a set of claims: when the entry as a whole was last checked."""
    return min(claim.as_of for claim in claims.values()).isoformat()


def markdown_tables(knowledge: KnowledgeBase) -> str:
    """A table of the platforms and one of the candidates, with linked sources and dates (a method source links to
    the site's method page, as the guide page needs it)."""
    lines = [
        "| family | GEMM | attention | collectives | deployment | dynamic shapes | source | checked |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for platform in knowledge.platforms:
        official = platform.official
        cells: list[Claim[Any]] = [
            official.gemm,
            official.attention,
            official.collectives,
            official.deployment,
            platform.dynamic_shapes,
        ]
        lines.append(
            f"| `{platform.id}` | "
            + " | ".join(md_escape(claim.text() or "-") for claim in cells)
            + f" | {source_link(platform.summary.source, GUIDE_METHOD_LINK)} | {checked(platform.claims())} |"
        )
    lines += ["", "| id | name | layer | hardware | source | checked |", "| --- | --- | --- | --- | --- | --- |"]
    for candidate in knowledge.candidates:
        lines.append(
            f"| `{candidate.id}` | {md_escape(candidate.name)} | {candidate.layer.value} | {md_escape(candidate.hardware.text())} "
            f"| {source_link(candidate.summary.source, GUIDE_METHOD_LINK)} | {checked(candidate.claims())} |"
        )
    return "\n".join(lines) + "\n"
