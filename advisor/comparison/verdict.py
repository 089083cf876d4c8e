"""The verdict on one matched case: from its statuses, or from its timing samples.

Status first (`status_verdict`): a case that is `failed` in B but was not in A is NEWLY-FAILING; one
`failed` in A and `ok` in B is FIXED; a case timed in neither run (skipped, not timed or failed on
both sides) is NOT-MEASURED; one timed on one side only is NOT-COMPARABLE.

Timing (`timing_verdict`) is an equivalence test (two one-sided tests, TOST) against the case's
band (`advisor.comparison.band`: the drift two runs show with nothing changed, 6-20%), with
[low, high] the bootstrap CI (90%) of B.median / A.median; a case timed on several visits is read
on each side's fastest visit (`advisor.comparison.visits`):

- SAME for identical sample sets: a file compared with itself;
- UNCERTAIN when a side has fewer than `min_samples` (8) samples;
- SAME when [low, high] lies inside [1 / (1 + band), 1 + band]: any change is smaller than the
  noise between runs, and the samples show it;
- FASTER when high < 1 / (1 + band), SLOWER when low > 1 + band: a change larger than the noise
  between runs. Independent samples must also differ by a Mann-Whitney test (p < `alpha`, 0.01);
- UNCERTAIN instead of FASTER/SLOWER when a side is noisy (IQR/median above the harness's 10%) or
  ran on a busy host: the bootstrap sees only the spread within each run, and a run with slow
  spells or a busy neighbour differs from another by far more than that with nothing changed
  (`noisy_blocks_change`, `busy_host_blocks_change`);
- UNCERTAIN instead of FASTER/SLOWER when a side's visits differ among themselves by more than the
  change between the runs (`unsteady_visits_block_change`): one run drifted that much on its own; or
  when the machine-speed reference kernel timed by the case's probe moved the same way by more than
  the band floor (`machine_shift_blocks_change`, advisor/comparison/machine.py): the machine itself
  was slower (or faster) in B while the probe ran;
- UNCERTAIN otherwise: the CI straddles an edge of the band. More samples narrow the CI and decide
  it; the reason says about how many (`advisor.comparison.remeasure.samples_to_decide`).
"""

from __future__ import annotations

from typing import NamedTuple

from advisor.comparison.band import band_side, change_either_way
from advisor.comparison.models import NumericChange, TimingChange, Verdict, VerdictRule
from advisor.comparison.remeasure import samples_to_decide
from probes.models import CaseStatus, NumericError


class TimingVerdict(NamedTuple):
    """A timing verdict, why, and for an undecided one about how many samples per side would decide it."""

    verdict: Verdict
    reason: str
    samples_to_decide: int | None = None


def status_verdict(
    status_a: CaseStatus, status_b: CaseStatus, timed_a: bool, timed_b: bool
) -> tuple[Verdict, str] | None:
    """The verdict the statuses alone decide, or None when both sides are ok and timed."""
    if status_b == "failed" and status_a != "failed":
        return "NEWLY-FAILING", f"{status_a} in A, failed in B"
    if status_a == "failed" and status_b == "ok":
        return "FIXED", "failed in A, ok in B"
    if status_a == status_b == "ok" and timed_a and timed_b:
        return None
    if not timed_a and not timed_b:
        return (
            "NOT-MEASURED",
            f"{status_a} in A, {status_b} in B" if status_a != status_b else f"{status_a} in both runs",
        )
    untimed = "B" if timed_a else "A"
    status = status_b if timed_a else status_a
    return "NOT-COMPARABLE", f"timed in {'A' if timed_a else 'B'} only ({status} in {untimed})"


def timing_verdict(timing: TimingChange, rule: VerdictRule) -> TimingVerdict:
    """FASTER / SLOWER / SAME / UNCERTAIN for two sample sets, by the rule in this module's docstring."""
    if timing.identical:
        return TimingVerdict("SAME", "identical samples")
    if min(timing.n_a, timing.n_b) < rule.min_samples:
        at_least = samples_to_decide(timing, rule) or rule.min_samples
        return TimingVerdict("UNCERTAIN", f"too few samples ({timing.n_a} vs {timing.n_b}, need {at_least})", at_least)
    side = band_side(timing.ratio_ci_low, timing.ratio_ci_high, timing.band)
    if side == "within":
        return TimingVerdict("SAME", f"within {timing.band:.0%}")
    if side == "straddles":
        needed = samples_to_decide(timing, rule)
        more = f": ~{needed} samples per side would decide it" if needed is not None else ""
        return TimingVerdict("UNCERTAIN", f"CI straddles the {timing.band:.0%} band{more}", needed)
    blocked = _change_blockers(timing, rule)
    if blocked:
        # Seen on a shared 2-core VM: runs with slow spells (one side bimodal) or a busy neighbour
        # differed 0.4-2x with nothing changed. Samples from within one run cannot show that.
        return TimingVerdict("UNCERTAIN", f"{timing.ratio:.2f}x but {blocked}: rerun on a quiet machine to confirm")
    if not timing.paired and timing.p_value >= rule.alpha:
        reason = f"{timing.ratio:.2f}x, beyond the {timing.band:.0%} band, but p = {timing.p_value:.2g}"
        return TimingVerdict("UNCERTAIN", reason, samples_to_decide(timing, rule))
    beyond = f"beyond the {timing.band:.0%} band"
    if side == "below":
        return TimingVerdict("FASTER", f"{1 - timing.ratio:.0%} less time, {beyond}")
    return TimingVerdict("SLOWER", f"{timing.ratio - 1:.0%} more time, {beyond}")


def _change_blockers(timing: TimingChange, rule: VerdictRule) -> str:
    """Why a change beyond the band cannot be trusted ('A noisy', 'host busy in B'...), or ''."""
    reasons = []
    if rule.noisy_blocks_change:
        noisy = [side for side, flag in (("A", timing.noisy_a), ("B", timing.noisy_b)) if flag]
        if noisy:
            reasons.append(f"{' and '.join(noisy)} noisy")
    if rule.unsteady_visits_block_change:
        change = change_either_way(timing.ratio)  # the change between the runs
        unsteady = [
            f"{side}'s own visits differ by {spread:.0%}"
            for side, spread in (("A", timing.visit_spread_a), ("B", timing.visit_spread_b))
            if spread > change
        ]
        reasons.extend(unsteady)
    if rule.machine_shift_blocks_change and timing.machine_ratio is not None:
        shift = timing.machine_ratio
        same_way = (timing.ratio > 1) == (shift > 1)
        if same_way and change_either_way(shift) > rule.band_floor:
            reasons.append(f"the machine's reference kernel ran {shift - 1:+.0%} in B while this probe ran")
    if rule.busy_host_blocks_change:
        busy = [side for side, flag in (("A", timing.busy_host_a), ("B", timing.busy_host_b)) if flag]
        if busy:
            reasons.append(f"host busy in {' and '.join(busy)}")
    return ", ".join(reasons)


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
