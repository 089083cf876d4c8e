"""How measured quantities are written for people (tables, records): one place, so they read alike."""

from __future__ import annotations


def format_seconds(value: float) -> str:
    """1.23 s, 4.56 ms or 7.8 us, whichever keeps the figure readable."""
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.2f} ms"
    return f"{value * 1e6:.1f} us"


def format_bytes(size: float) -> str:
    """4 KiB, 64 MiB, 1 GiB: message and transfer sizes as people write them (powers of 1024)."""
    for unit, scale in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if size >= scale:
            return f"{size / scale:g} {unit}"
    return f"{size:g} B"
