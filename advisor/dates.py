"""Dates given on the command line or in the environment (`--today`, `--as-of`, ADVISOR_SITE_TODAY)."""

from __future__ import annotations

import datetime as dt

from probes.errors import AdvisorError

# Reviews add a year to a date and look months ahead of it; dates this side of datetime's year 9999 leave
# room for that, and git dates nothing before 1970.
EARLIEST_DAY = dt.date(1970, 1, 1)
LATEST_DAY = dt.date(9000, 12, 31)


def parse_date(text: str | None, origin: str) -> dt.date:
    """A YYYY-MM-DD date between EARLIEST_DAY and LATEST_DAY, or today when `text` is empty; a one-line error
    naming `origin` otherwise."""
    if not text:
        return dt.date.today()
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        raise AdvisorError(f"{origin}: {text[:40]!r} is not a date; use YYYY-MM-DD") from None
    if not EARLIEST_DAY <= day <= LATEST_DAY:
        raise AdvisorError(f"{origin}: {text!r} is out of range; use a date from {EARLIEST_DAY} to {LATEST_DAY}")
    return day
