"""The method page shipped with the package ("How advisor decides"): its text, sections and anchors.

Knowledge-base claims cite it as `method#anchor`; the loader checks that every anchor exists, the
site publishes the page, and `advisor kb method [ANCHOR]` prints it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from advisor.knowledge.claims import KnowledgeQueryError

METHOD_FILE = "method.md"
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*\{#([a-z0-9-]+)\}\s*$")


@dataclass(frozen=True)
class MethodSection:
    """One heading of the method page with the text up to the next heading of the same or a higher level."""

    anchor: str
    title: str
    level: int
    text: str


@lru_cache(maxsize=1)
def method_text() -> str:
    """The method page's Markdown."""
    return resources.files("advisor.data").joinpath(METHOD_FILE).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def method_sections() -> tuple[MethodSection, ...]:
    """Every anchored heading of the page, in order."""
    lines = method_text().splitlines()
    headings = [(index, match) for index, line in enumerate(lines) if (match := _HEADING.match(line))]
    sections = []
    for position, (index, match) in enumerate(headings):
        level = len(match.group(1))
        end = next((i for i, m in headings[position + 1 :] if len(m.group(1)) <= level), len(lines))
        body = "\n".join(lines[index + 1 : end]).strip()
        sections.append(MethodSection(anchor=match.group(3), title=match.group(2), level=level, text=body))
    return tuple(sections)


def method_anchors() -> frozenset[str]:
    """The anchors a claim may cite as method#anchor."""
    return frozenset(section.anchor for section in method_sections())


def method_section(anchor: str) -> MethodSection:
    """One section by anchor; KnowledgeQueryError listing the anchors otherwise."""
    for section in method_sections():
        if section.anchor == anchor:
            return section
    known = ", ".join(section.anchor for section in method_sections())
    raise KnowledgeQueryError(f"no method section {anchor!r}; anchors: {known}")
