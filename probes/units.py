"""How measured quantities are written for people (tables, records): one place, so they read alike."""

from __future__ import annotations


def format_seconds(value: float) -> str:
    """1.23 s, 4.56 ms or 7.8 us, whichever keeps the figure readable."""
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.2f} ms"
    return f"{value * 1e6:.1f} us"
