"""What `advisor compare` finds: one pydantic model per thing reported, no I/O here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from probes.models import CaseKey, CaseStatus

COMPARISON_SCHEMA_VERSION = 1

Verdict = Literal["FASTER", "SAME", "SLOWER", "UNCERTAIN", "FIXED", "NEWLY-FAILING", "NOT-COMPARABLE"]
VERDICTS: tuple[Verdict, ...] = ("FASTER", "SAME", "SLOWER", "UNCERTAIN", "FIXED", "NEWLY-FAILING", "NOT-COMPARABLE")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class VerdictRule(_Model):
    """The thresholds a timing verdict uses (see `advisor.comparison.verdict.timing_verdict`)."""

    alpha: float = Field(default=0.01, description="Mann-Whitney p-value below which a difference is significant")
    min_effect: float = Field(default=0.05, description="Smallest change of the median worth a verdict: 0.05 = 5%")
    same_band: float = Field(
        default=0.10, description="A non-significant change whose ratio CI stays within 1 +/- this is SAME"
    )
    min_samples: int = Field(default=8, description="Fewer samples on a side: UNCERTAIN")
    noisy_blocks_change: bool = Field(
        default=True,
        description="A noisy side (IQR/median above the harness threshold) turns FASTER/SLOWER into UNCERTAIN",
    )
    confidence: float = Field(default=0.95, description="Coverage of the bootstrap CI of the ratio")
    resamples: int = 2000
    seed: int = 0


class TimingChange(_Model):
    """The two timing sample sets of a case and the statistics comparing them."""

    n_a: int
    n_b: int
    median_a_s: float
    median_b_s: float
    ratio: float = Field(description="B median / A median: below 1 means B takes less time")
    ratio_ci_low: float
    ratio_ci_high: float
    p_value: float = Field(description="Two-sided Mann-Whitney U test on the raw samples")
    approximate: bool = Field(description="Fewer samples than the normal approximation of U needs")
    noisy_a: bool
    noisy_b: bool
    single_pass: bool = Field(description="Step samples of a single-pass scenario (e.g. the dynamic probe)")


class NumericChange(_Model):
    """The numeric error of a case in both runs."""

    passed_a: bool
    passed_b: bool
    max_rel_a: float | None
    max_rel_b: float | None
    accuracy_regression: bool = Field(description="Passed its tolerance in A, fails it in B")


class CaseComparison(_Model):
    """One case measured in both runs."""

    key: CaseKey
    status_a: CaseStatus
    status_b: CaseStatus
    verdict: Verdict
    reason: str = Field(description="Why this verdict, in a few words")
    timing: TimingChange | None = None
    numeric: NumericChange | None = None


class ControlDifference(_Model):
    """A variable that differs between the two runs, with its value in each."""

    variable: str
    a: str | None
    b: str | None


class Comparison(_Model):
    """Run B against run A: matched cases best first, unmatched ones and the control variables."""

    schema_version: int = COMPARISON_SCHEMA_VERSION
    rule: VerdictRule
    cases: list[CaseComparison] = Field(description="Matched cases, best change first")
    unmatched_a: list[str] = Field(description="case_ids only in A")
    unmatched_b: list[str] = Field(description="case_ids only in B")
    controls: list[ControlDifference] = Field(description="Variables that differ between the runs")
    attributable: bool = Field(description="At most one control variable differs, so a change can be attributed")
    verdict_counts: Mapping[str, int]
    accuracy_regressions: list[str] = Field(description="case_ids that pass their tolerance in A and fail in B")
