"""Compare two Evidence files case by case: timing verdicts against an equivalence band, numeric changes and the
control variables."""

from advisor.comparison.compare import compare_evidence
from advisor.comparison.models import (
    CaseComparison,
    Comparison,
    ComparisonSummary,
    ControlDifference,
    Remeasure,
    Verdict,
    VerdictRule,
)
from advisor.comparison.remeasure import cases_to_remeasure

__all__ = [
    "CaseComparison",
    "Comparison",
    "ComparisonSummary",
    "ControlDifference",
    "Remeasure",
    "Verdict",
    "VerdictRule",
    "cases_to_remeasure",
    "compare_evidence",
]
