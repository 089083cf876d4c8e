"""Dates given on the command line or in the environment (`--today`, `--as-of`, ADVISOR_SITE_TODAY)."""

from __future__ import annotations

import datetime as dt

from advisor.errors import AdvisorError


def parse_date(text: str | None, origin: str) -> dt.date:
    """A YYYY-MM-DD date, or today when `text` is empty; a one-line error naming `origin` otherwise."""
    if not text:
        return dt.date.today()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise AdvisorError(f"{origin}: {text!r} is not a date; use YYYY-MM-DD") from None
