"""File-name slugs from record titles: ASCII, lowercase, dashes; a title can never steer a path."""

from __future__ import annotations

import re
import unicodedata

MAX_SLUG_LENGTH = 60
FALLBACK_SLUG = "decision"


def slugify(title: str, max_length: int = MAX_SLUG_LENGTH) -> str:
    """`[a-z0-9-]` only (accents folded by NFKD, the rest dropped), dashes collapsed, at most max_length."""
    ascii_text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii").lower()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")
    slug = slug[:max_length].rstrip("-")
    return slug or FALLBACK_SLUG
