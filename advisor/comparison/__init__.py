"""Compare two Evidence files case by case: timing verdicts, numeric changes and the control variables."""

from advisor.comparison.compare import compare_evidence
from advisor.comparison.models import CaseComparison, Comparison, ControlDifference, Verdict, VerdictRule

__all__ = ["CaseComparison", "Comparison", "ControlDifference", "Verdict", "VerdictRule", "compare_evidence"]
