"""advisor: choose an ML operator stack from measured evidence, keep each choice as a decision record.

The library's two jobs are `advisor.assess(...)` (profile -> probes -> recommendation -> record) and
`advisor.review_record(...)` (the yearly review of a record; `advisor.review_records(...)` for several or
those due; `advisor.review` is its package); the CLI only
parses arguments and prints.
"""

from __future__ import annotations

from typing import Any

from probes._version import __version__

__all__ = ["__version__", "assess", "review_record", "review_records"]


def __getattr__(name: str) -> Any:
    """`advisor.assess`, `advisor.review_record` and `advisor.review_records`, imported when first used (the package itself stays light)."""
    if name == "assess":
        from advisor.assessment import assess

        return assess
    if name == "review_record":
        from advisor.review.run import run_review

        return run_review
    if name == "review_records":
        from advisor.review.batch import review_records

        return review_records
    raise AttributeError(f"module 'advisor' has no attribute {name!r}")
