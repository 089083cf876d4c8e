"""The `Review History` section at the end of a record: one entry appended per review (text only, no I/O)."""

from __future__ import annotations

from collections.abc import Sequence

from advisor.markdown import md_escape

HEADING = "## Review History"


def append_review_entry(body: str, title_line: str, lines: Sequence[str]) -> str:
    """The body with one review entry (a bullet and its indented details) added under `## Review History`."""
    text = body.rstrip("\n")
    if HEADING not in text.split("\n"):
        text += f"\n\n{HEADING}\n"
    entry = [f"* {md_escape(title_line)}", *(f"  - {md_escape(line)}" for line in lines)]
    return text + "\n" + "\n".join(entry) + "\n"
