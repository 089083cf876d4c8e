"""`compare_evidence`: run B against run A, case by case (pure: no I/O)."""

from __future__ import annotations

from advisor.comparison.controls import control_differences
from advisor.comparison.models import VERDICTS, CaseComparison, Comparison, TimingChange, VerdictRule
from advisor.comparison.statistics import bootstrap_ratio_of_medians, mann_whitney_u
from advisor.comparison.verdict import numeric_change, status_verdict, timing_verdict
from probes.models import Evidence, Measurement, ProbeCase

# Best first: fixed cases, then timed verdicts by ratio, then the ones that got worse or cannot be compared.
_RANK_GROUP = {"FIXED": 0, "FASTER": 1, "SAME": 1, "UNCERTAIN": 1, "SLOWER": 1, "NEWLY-FAILING": 2, "NOT-COMPARABLE": 3}


def compare_evidence(a: Evidence, b: Evidence, rule: VerdictRule | None = None) -> Comparison:
    """Match the cases of A and B by case_id, judge each matched one and check the control variables."""
    rule = rule or VerdictRule()
    cases_a = {case.key.case_id: case for case in a.cases}
    cases_b = {case.key.case_id: case for case in b.cases}
    matched = [compare_case(cases_a[case_id], cases_b[case_id], rule) for case_id in cases_a if case_id in cases_b]
    controls = control_differences(a, b)
    counts: dict[str, int] = {verdict: 0 for verdict in VERDICTS}
    for case in matched:
        counts[case.verdict] += 1
    return Comparison(
        rule=rule,
        cases=ranked_best_first(matched),
        unmatched_a=[case_id for case_id in cases_a if case_id not in cases_b],
        unmatched_b=[case_id for case_id in cases_b if case_id not in cases_a],
        controls=controls,
        attributable=len(controls) <= 1,
        verdict_counts=counts,
        accuracy_regressions=[
            case.key.case_id for case in matched if case.numeric is not None and case.numeric.accuracy_regression
        ],
    )


def compare_case(a: ProbeCase, b: ProbeCase, rule: VerdictRule) -> CaseComparison:
    """The verdict on one case measured in both runs, with its timing and numeric changes."""
    timing = timing_change(a.timing, b.timing, rule) if a.timing and b.timing else None
    decided = status_verdict(a.status, b.status, timed=timing is not None)
    if decided is None and timing is not None:
        decided = timing_verdict(timing, rule)
    verdict, reason = decided or ("NOT-COMPARABLE", "no timing samples")
    return CaseComparison(
        key=b.key,
        status_a=a.status,
        status_b=b.status,
        verdict=verdict,
        reason=reason,
        timing=timing,
        numeric=numeric_change(a.numeric, b.numeric),
    )


def timing_change(a: Measurement, b: Measurement, rule: VerdictRule) -> TimingChange | None:
    """The statistics of two sample sets, or None when a side has no samples."""
    if not a.samples or not b.samples:
        return None
    test = mann_whitney_u(a.samples, b.samples)
    interval = bootstrap_ratio_of_medians(
        a.samples, b.samples, resamples=rule.resamples, confidence=rule.confidence, seed=rule.seed
    )
    return TimingChange(
        n_a=len(a.samples),
        n_b=len(b.samples),
        median_a_s=a.stats.median,
        median_b_s=b.stats.median,
        ratio=interval.ratio,
        ratio_ci_low=interval.low,
        ratio_ci_high=interval.high,
        p_value=test.p_value,
        approximate=test.approximate,
        noisy_a=a.stats.noisy,
        noisy_b=b.stats.noisy,
        single_pass="single pass" in (a.stop_reason, b.stop_reason),
    )


def ranked_best_first(cases: list[CaseComparison]) -> list[CaseComparison]:
    """Fixed first, then by ratio (B fastest relative to A first), then newly failing, then not comparable."""

    def rank(case: CaseComparison) -> tuple[int, float, str]:
        ratio = case.timing.ratio if case.timing is not None and _RANK_GROUP[case.verdict] == 1 else 0.0
        return _RANK_GROUP[case.verdict], ratio, case.key.case_id

    return sorted(cases, key=rank)
