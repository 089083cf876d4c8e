"""The verdict on one matched case: from its statuses, or from its timing samples.

Status first (`status_verdict`): a case that is `failed` in B but was not in A is NEWLY-FAILING; one
`failed` in A and `ok` in B is FIXED; any other pair that is not "ok and timed" on both sides
(skipped, not-timed, failed twice) is NOT-COMPARABLE.

Timing (`timing_verdict`), with p the two-sided Mann-Whitney p-value of the raw samples and
[low, high] the bootstrap CI of B.median / A.median, defaults in brackets:

- UNCERTAIN when a side has fewer than `min_samples` (8) samples;
- FASTER when p < `alpha` (0.01) and high < 1 - `min_effect` (0.95): B reliably takes less time;
- SLOWER when p < `alpha` and low > 1 + `min_effect` (1.05);
- SAME when [low, high] lies within [1 - min_effect, 1 + min_effect], significant or not (a real
  but tiny change is machine noise for this purpose), or when p >= alpha and [low, high] lies
  within [1 - `same_band`, 1 + `same_band`] (0.90-1.10);
- UNCERTAIN instead of FASTER/SLOWER when a side is noisy (IQR/median above the harness's 10%):
  the bootstrap sees only the spread within each run, and a run with slow spells differs from
  another by far more than that with nothing changed (`noisy_blocks_change`);
- UNCERTAIN otherwise: the CI straddles a threshold, or a noisy side makes it too wide.
Requiring both the test and the effect size keeps noise from being called a regression.
"""

from __future__ import annotations

from advisor.comparison.models import NumericChange, TimingChange, Verdict, VerdictRule
from probes.models import CaseStatus, NumericError


def status_verdict(status_a: CaseStatus, status_b: CaseStatus, timed: bool) -> tuple[Verdict, str] | None:
    """The verdict the statuses alone decide, or None when both sides are ok and timed."""
    if status_b == "failed" and status_a != "failed":
        return "NEWLY-FAILING", f"{status_a} in A, failed in B"
    if status_a == "failed" and status_b == "ok":
        return "FIXED", "failed in A, ok in B"
    if status_a == "ok" and status_b == "ok" and timed:
        return None
    if status_a == status_b == "ok":
        return "NOT-COMPARABLE", "no timing samples on a side"
    return "NOT-COMPARABLE", f"{status_a} in A, {status_b} in B"


def timing_verdict(timing: TimingChange, rule: VerdictRule) -> tuple[Verdict, str]:
    """FASTER / SLOWER / SAME / UNCERTAIN for two sample sets, by the rule in this module's docstring."""
    if min(timing.n_a, timing.n_b) < rule.min_samples:
        return "UNCERTAIN", f"too few samples ({timing.n_a} vs {timing.n_b}, need {rule.min_samples})"
    significant = timing.p_value < rule.alpha
    low, high = timing.ratio_ci_low, timing.ratio_ci_high
    noisy = [side for side, flag in (("A", timing.noisy_a), ("B", timing.noisy_b)) if flag]
    changed = significant and (high < 1 - rule.min_effect or low > 1 + rule.min_effect)
    if changed and noisy and rule.noisy_blocks_change:
        # Seen on a shared 2-core VM: runs with slow spells (one side bimodal) differed 0.4-2x with
        # nothing changed. The bootstrap only knows the spread within a run, so a noisy side needs a rerun.
        return "UNCERTAIN", f"{timing.ratio:.2f}x but {' and '.join(noisy)} noisy: rerun on a quiet machine to confirm"
    if significant and high < 1 - rule.min_effect:
        return "FASTER", f"{1 - timing.ratio:.0%} less time"
    if significant and low > 1 + rule.min_effect:
        return "SLOWER", f"{timing.ratio - 1:.0%} more time"
    if 1 - rule.min_effect <= low and high <= 1 + rule.min_effect:
        return "SAME", f"within {rule.min_effect:.0%}"
    if not significant and 1 - rule.same_band <= low and high <= 1 + rule.same_band:
        return "SAME", f"not significant, within {rule.same_band:.0%}"
    reason = "CI straddles the effect threshold" if significant else "not significant, CI too wide"
    return "UNCERTAIN", f"{reason} ({' and '.join(noisy)} noisy)" if noisy else reason


def numeric_change(a: NumericError | None, b: NumericError | None) -> NumericChange | None:
    """Both runs' numeric errors; an accuracy regression is a case that passed in A and fails in B."""
    if a is None or b is None:
        return None
    return NumericChange(
        passed_a=a.passed,
        passed_b=b.passed,
        max_rel_a=a.max_rel,
        max_rel_b=b.max_rel,
        accuracy_regression=a.passed and not b.passed,
    )
