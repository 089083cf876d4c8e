"""The `Review History` section at the end of a record: one entry appended per review (text only, no I/O)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from advisor.markdown import md_escape

HEADING = "## Review History"
_PLAN_LINE = re.compile(r"^Review by \d{4}-\d{2}-\d{2} \([^)]*\)", re.MULTILINE)


def update_review_plan(body: str, review_by: dt.date, reviewed: dt.date) -> str:
    """The Review Plan's date moved to the new review_by after a keep (the record's other text unchanged)."""
    line = f"Review by {review_by.isoformat()} (kept at the review of {reviewed.isoformat()})"
    return _PLAN_LINE.sub(line, body, count=1)


def append_review_entry(body: str, title_line: str, lines: Sequence[str]) -> str:
    """The body with one review entry (a bullet and its indented details) added under `## Review History`."""
    text = body.rstrip("\n")
    if HEADING not in text.split("\n"):
        text += f"\n\n{HEADING}\n"
    entry = [f"* {md_escape(title_line)}", *(f"  - {md_escape(line)}" for line in lines)]
    return text + "\n" + "\n".join(entry) + "\n"
