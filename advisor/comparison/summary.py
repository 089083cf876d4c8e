"""`comparison_summary`: the matched cases' verdicts as counts and shares, with the bands they were judged by.

Shares of comparable cases are over the cases timed in both runs; the comparable share is over the
cases timed in at least one run (unmatched ones included), so a case no run could time (unsupported
here, skipped by both) does not count against it.
"""

from __future__ import annotations

from statistics import median

from advisor.comparison.models import TIMED_VERDICTS, CaseComparison, ComparisonSummary
from advisor.comparison.remeasure import case_remeasure


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def comparison_summary(matched: list[CaseComparison], timed_cases: int) -> ComparisonSummary:
    """Counts, shares and band range over the matched cases; `timed_cases` counts the cases timed in either
    run, matched or not."""
    comparable = [case for case in matched if case.verdict in TIMED_VERDICTS]
    not_measured = sum(case.verdict == "NOT-MEASURED" for case in matched)
    bands = sorted(case.timing.band for case in comparable if case.timing is not None)
    ratios = [case.timing.ratio for case in comparable if case.timing is not None]

    def verdicts(*names: str) -> int:
        return sum(case.verdict in names for case in comparable)

    return ComparisonSummary(
        timed_cases=timed_cases,
        comparable=len(comparable),
        not_measured=not_measured,
        comparable_share=_share(len(comparable), timed_cases),
        same_share=_share(verdicts("SAME"), len(comparable)),
        changed_share=_share(verdicts("FASTER", "SLOWER"), len(comparable)),
        uncertain_share=_share(verdicts("UNCERTAIN"), len(comparable)),
        median_ratio=median(ratios) if ratios else None,
        band_min=bands[0] if bands else None,
        band_median=median(bands) if bands else None,
        band_max=bands[-1] if bands else None,
        to_remeasure=sum(case_remeasure(case) is not None for case in matched),
    )
