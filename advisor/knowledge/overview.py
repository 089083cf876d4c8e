"""The knowledge base as Markdown tables: platforms and candidates, each with its source as a link and the
date it was checked (`advisor kb list --markdown`; the README's knowledge-base section is this output)."""

from __future__ import annotations

from typing import Any

from urllib.parse import urlsplit

from advisor.knowledge.claims import Claim, method_anchor
from advisor.knowledge.method import method_sections
from advisor.knowledge.models import KnowledgeBase
from advisor.markdown import md_escape, safe_url

README_METHOD_LINK = "advisor/data/method.md"


def source_link(source: str, method_href: str, *, with_anchor: bool = True) -> str:
    """A claim's source as a Markdown link: a method section to `method_href` (with '#anchor' where the page
    renders the method's anchors: the site does, GitHub's view of the file does not), a URL to itself."""
    anchor = method_anchor(source)
    if anchor is not None:
        titles = {section.anchor: section.title for section in method_sections()}
        target = f"{method_href}#{anchor}" if with_anchor else method_href
        return f"[method: {md_escape(titles.get(anchor, anchor))}]({target})"
    parts = urlsplit(source)
    shown = parts.netloc + parts.path.rstrip("/") + (f"#{parts.fragment}" if parts.fragment else "")
    return f"[{md_escape(shown)}]({safe_url(source)})"


def checked(claims: dict[str, Claim[Any]]) -> str:
    """The oldest `as_of` of a set of claims: when the entry as a whole was last checked."""
    return min(claim.as_of for claim in claims.values()).isoformat()


def markdown_tables(knowledge: KnowledgeBase) -> str:
    """A table of the platforms and one of the candidates, with linked sources and dates (links relative to
    the repository root, as the README needs them)."""
    lines = [
        "| family | GEMM | attention | collectives | deployment | dynamic shapes | source | checked |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for platform in knowledge.platforms:
        official = platform.official
        cells: list[Claim[Any]] = [official.gemm, official.attention, official.collectives, official.deployment,
                                   platform.dynamic_shapes]
        lines.append(
            f"| `{platform.id}` | " + " | ".join(md_escape(claim.text() or "-") for claim in cells)
            + f" | {source_link(platform.summary.source, README_METHOD_LINK, with_anchor=False)} | {checked(platform.claims())} |"
        )
    lines += ["", "| id | name | layer | hardware | source | checked |", "| --- | --- | --- | --- | --- | --- |"]
    for candidate in knowledge.candidates:
        lines.append(
            f"| `{candidate.id}` | {md_escape(candidate.name)} | {candidate.layer.value} | {md_escape(candidate.hardware.text())} "
            f"| {source_link(candidate.summary.source, README_METHOD_LINK, with_anchor=False)} | {checked(candidate.claims())} |"
        )
    return "\n".join(lines) + "\n"
