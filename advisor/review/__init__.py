"""Reviewing a decision record: re-probe, diff the environment and the evidence, keep or revise."""

from advisor.review.batch import DueCheck, ReviewBatch, check_due, review_records
from advisor.review.core import review_decision
from advisor.review.models import ReviewOutcome
from advisor.review.run import ReviewResult, due_records, run_review

__all__ = [
    "DueCheck",
    "ReviewBatch",
    "check_due",
    "ReviewOutcome",
    "ReviewResult",
    "due_records",
    "review_decision",
    "review_records",
    "run_review",
]
