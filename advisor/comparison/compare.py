"""`compare_evidence`: run B against run A, case by case (pure: no I/O)."""

from __future__ import annotations

from advisor.comparison.band import equivalence_band
from advisor.comparison.controls import control_differences
from advisor.comparison.machine import machine_ratios
from advisor.comparison.models import VERDICTS, CaseComparison, Comparison, TimingChange, VerdictRule
from advisor.comparison.probe_verdict import probe_verdicts
from advisor.comparison.statistics import (
    MIN_SAMPLES_FOR_NORMAL_APPROXIMATION,
    MannWhitneyResult,
    RatioInterval,
    bootstrap_ratio_of_medians,
    mann_whitney_u,
)
from advisor.comparison.summary import comparison_summary
from advisor.comparison.verdict import numeric_change, status_verdict, timing_verdict
from advisor.comparison.visits import is_timed, judged_visit
from probes.models import Evidence, Measurement, ProbeCase, Stats

# Best first: fixed cases, then timed verdicts by ratio, then the ones that got worse or cannot be compared.
_RANK_GROUP = {
    "FIXED": 0,
    "FASTER": 1,
    "SAME": 1,
    "UNCERTAIN": 1,
    "SLOWER": 1,
    "NEWLY-FAILING": 2,
    "NOT-COMPARABLE": 3,
    "NOT-MEASURED": 4,
}


def compare_evidence(a: Evidence, b: Evidence, rule: VerdictRule | None = None) -> Comparison:
    """Match the cases of A and B by case_id, judge each matched one and check the control variables."""
    rule = rule or VerdictRule()
    cases_a = {case.key.case_id: case for case in a.cases}
    cases_b = {case.key.case_id: case for case in b.cases}
    busy_a, busy_b = host_was_busy(a), host_was_busy(b)
    machine = machine_ratios(a, b)
    pairs = [(case, cases_b[case_id]) for case_id, case in cases_a.items() if case_id in cases_b]
    matched = [
        compare_case(
            case_a, case_b, rule, busy_host_a=busy_a, busy_host_b=busy_b, machine_ratio=machine.get(case_a.key.probe)
        )
        for case_a, case_b in pairs
    ]
    unmatched_a = [case for case_id, case in cases_a.items() if case_id not in cases_b]
    unmatched_b = [case for case_id, case in cases_b.items() if case_id not in cases_a]
    # Cases timed in a run, matched or not: a case neither run timed cannot count against comparability.
    timed_cases = sum(is_timed(case_a) or is_timed(case_b) for case_a, case_b in pairs)
    timed_cases += sum(map(is_timed, unmatched_a + unmatched_b))
    controls = control_differences(a, b)
    counts: dict[str, int] = {verdict: 0 for verdict in VERDICTS}
    for case in matched:
        counts[case.verdict] += 1
    return Comparison(
        rule=rule,
        cases=ranked_best_first(matched),
        unmatched_a=[case.key.case_id for case in unmatched_a],
        unmatched_b=[case.key.case_id for case in unmatched_b],
        controls=controls,
        attributable=len(controls) <= 1,
        verdict_counts=counts,
        summary=comparison_summary(matched, timed_cases),
        accuracy_regressions=[
            case.key.case_id for case in matched if case.numeric is not None and case.numeric.accuracy_regression
        ],
        machine_ratios=machine,
        probes=probe_verdicts(pairs, machine, rule, busy_host=busy_a or busy_b),
    )


def host_was_busy(evidence: Evidence) -> bool:
    """Other processes took a fair share of the CPU during the run (False when it was not measured)."""
    return evidence.host_contention is not None and evidence.host_contention.busy


def compare_case(
    a: ProbeCase,
    b: ProbeCase,
    rule: VerdictRule,
    *,
    busy_host_a: bool = False,
    busy_host_b: bool = False,
    machine_ratio: float | None = None,
) -> CaseComparison:
    """The verdict on one case measured in both runs, with its timing and numeric changes."""
    timed_a, timed_b = is_timed(a), is_timed(b)
    timing = None
    if timed_a and timed_b and a.timing is not None and b.timing is not None:
        timing = timing_change(
            a.timing, b.timing, rule, busy_host_a=busy_host_a, busy_host_b=busy_host_b, machine_ratio=machine_ratio
        )
    decided = status_verdict(a.status, b.status, timed_a=timed_a, timed_b=timed_b)
    samples = None
    if decided is not None:
        verdict, reason = decided
    else:  # both ok and timed, so timing is set
        assert timing is not None
        verdict, reason, samples = timing_verdict(timing, rule)
    return CaseComparison(
        key=b.key,
        status_a=a.status,
        status_b=b.status,
        verdict=verdict,
        reason=reason,
        timing=timing,
        numeric=numeric_change(a.numeric, b.numeric),
        samples_to_decide=samples,
    )


def timing_change(
    a: Measurement,
    b: Measurement,
    rule: VerdictRule,
    *,
    busy_host_a: bool = False,
    busy_host_b: bool = False,
    machine_ratio: float | None = None,
) -> TimingChange:
    """The statistics of two non-empty sample sets, each read on its judged visit (`judged_visit`: the
    fastest one), and the case's equivalence band."""
    single_pass = "single pass" in (a.stop_reason, b.stop_reason)
    identical = a.samples == b.samples
    judged_a, judged_b = judged_visit(a, rule.min_samples), judged_visit(b, rule.min_samples)
    samples_a, samples_b = judged_a.samples, judged_b.samples
    stats_a, stats_b = _stats(samples_a, a), _stats(samples_b, b)
    # Steps of two passes over one seeded stream pair up; a file compared with itself pairs up exactly.
    paired = identical or (single_pass and len(samples_a) == len(samples_b))
    if identical:  # nothing to resample: every paired resample's ratio is 1
        interval = RatioInterval(ratio=1.0, low=1.0, high=1.0, confidence=rule.confidence)
        test = MannWhitneyResult(
            u=len(samples_a) ** 2 / 2,
            z=0.0,
            p_value=1.0,
            approximate=len(samples_a) < MIN_SAMPLES_FOR_NORMAL_APPROXIMATION,
        )
    else:
        test = mann_whitney_u(samples_a, samples_b)
        interval = bootstrap_ratio_of_medians(
            samples_a, samples_b, resamples=rule.resamples, confidence=rule.confidence, seed=rule.seed, paired=paired
        )
    return TimingChange(
        n_a=len(samples_a),
        n_b=len(samples_b),
        median_a_s=stats_a.median,
        median_b_s=stats_b.median,
        visit_a=judged_a.visit,
        visit_b=judged_b.visit,
        visits_a=judged_a.visits,
        visits_b=judged_b.visits,
        visit_spread_a=judged_a.spread,
        visit_spread_b=judged_b.spread,
        machine_ratio=machine_ratio,
        ratio=interval.ratio,
        ratio_ci_low=interval.low,
        ratio_ci_high=interval.high,
        band=equivalence_band(
            stats_a, stats_b, rule, visit_spread=max(judged_a.spread, judged_b.spread), machine_ratio=machine_ratio
        ),
        paired=paired,
        identical=identical,
        p_value=test.p_value,
        approximate=test.approximate,
        noisy_a=stats_a.noisy,
        noisy_b=stats_b.noisy,
        busy_host_a=busy_host_a,
        busy_host_b=busy_host_b,
        single_pass=single_pass,
    )


def _stats(samples: list[float], timing: Measurement) -> Stats:
    """The statistics of the judged samples: the measurement's own when they are all its samples."""
    if len(samples) == len(timing.samples):
        return timing.stats
    return Stats.from_samples(samples)


def ranked_best_first(cases: list[CaseComparison]) -> list[CaseComparison]:
    """Fixed first, then by ratio (B fastest relative to A first), then newly failing, not comparable, not measured."""

    def rank(case: CaseComparison) -> tuple[int, float, str]:
        ratio = case.timing.ratio if case.timing is not None and _RANK_GROUP[case.verdict] == 1 else 0.0
        return _RANK_GROUP[case.verdict], ratio, case.key.case_id

    return sorted(cases, key=rank)
