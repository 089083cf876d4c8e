"""What `advisor compare` finds: one pydantic model per thing reported, no I/O here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from probes.models import CaseKey, CaseStatus, HarnessSettings

# 2: the equivalence band (VerdictRule band_*, TimingChange.band), NOT-MEASURED, the summary.
COMPARISON_SCHEMA_VERSION = 2

Verdict = Literal["FASTER", "SAME", "SLOWER", "UNCERTAIN", "FIXED", "NEWLY-FAILING", "NOT-COMPARABLE", "NOT-MEASURED"]
VERDICTS: tuple[Verdict, ...] = (
    "FASTER",
    "SAME",
    "SLOWER",
    "UNCERTAIN",
    "FIXED",
    "NEWLY-FAILING",
    "NOT-COMPARABLE",
    "NOT-MEASURED",
)
TIMED_VERDICTS: tuple[Verdict, ...] = ("FASTER", "SAME", "SLOWER", "UNCERTAIN")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class VerdictRule(_Model):
    """The thresholds a timing verdict uses (see `advisor.comparison.verdict.timing_verdict`)."""

    band_floor: float = Field(
        default=0.06, description="Narrowest equivalence band: the drift between two quiet runs, 0.06 = 6%"
    )
    band_per_spread: float = Field(
        default=0.6,
        description="Band for noisy samples: this times the larger side's IQR/median (0.6 x 10% = the floor)",
    )
    band_cap: float = Field(default=0.20, description="Widest equivalence band, however noisy the samples")
    probe_band: float = Field(
        default=0.025,
        description="Equivalence band of a probe's verdict (the median of its cases' B/A): how far that median "
        "drifted between two quiet runs, 0.025 = 2.5%",
    )
    alpha: float = Field(
        default=0.01, description="FASTER/SLOWER of independent samples also needs a Mann-Whitney p-value below this"
    )
    min_samples: int = Field(default=8, description="Fewer samples on a side: UNCERTAIN")
    noisy_blocks_change: bool = Field(
        default=True,
        description="A noisy side (IQR/median above the harness threshold) turns FASTER/SLOWER into UNCERTAIN",
    )
    machine_shift_blocks_change: bool = Field(
        default=True,
        description="FASTER/SLOWER becomes UNCERTAIN when the machine's reference kernel moved the same way by "
        "more than the band floor while the case's probe ran",
    )
    unsteady_visits_block_change: bool = Field(
        default=True,
        description="A side whose visits' medians differ by more than the change between the runs turns "
        "FASTER/SLOWER into UNCERTAIN",
    )
    busy_host_blocks_change: bool = Field(
        default=True,
        description="A run on a busy host (other processes above 20% of the CPU) turns FASTER/SLOWER into UNCERTAIN",
    )
    confidence: float = Field(
        default=0.90, description="Coverage of the bootstrap CI of the ratio (0.90: two one-sided 5% tests)"
    )
    max_samples: int = Field(
        default=HarnessSettings().max_samples, description="Most samples per side a rerun may take (the harness's cap)"
    )
    resamples: int = 2000
    seed: int = 0


class TimingChange(_Model):
    """The two timing sample sets of a case and the statistics comparing them."""

    n_a: int
    n_b: int
    median_a_s: float
    median_b_s: float
    visit_a: int | None = Field(
        default=None, description="The visit of A judged (1-based; its lowest median): None when all samples were"
    )
    visit_b: int | None = None
    visits_a: int = Field(default=1, description="Visits A timed the case on")
    visits_b: int = 1
    visit_spread_a: float = Field(
        default=0.0, description="A's middle visit median over its fastest, less 1 (0 with one visit)"
    )
    visit_spread_b: float = 0.0
    machine_ratio: float | None = Field(
        default=None,
        description="The machine-speed reference kernel's B/A while this case's probe ran (None: not read)",
    )
    ratio: float = Field(description="B median / A median: below 1 means B takes less time")
    ratio_ci_low: float
    ratio_ci_high: float
    band: float = Field(description="Equivalence band half-width: SAME needs the CI inside [1/(1+band), 1+band]")
    paired: bool = Field(description="Samples resampled in pairs: step i of one pass against step i of the other")
    identical: bool = Field(
        default=False, description="The same samples on both sides: one measurement compared with itself"
    )
    p_value: float = Field(description="Two-sided Mann-Whitney U test on the raw samples")
    approximate: bool = Field(description="Fewer samples than the normal approximation of U needs")
    noisy_a: bool
    noisy_b: bool
    busy_host_a: bool = Field(default=False, description="Run A's host was busy (Evidence.host_contention)")
    busy_host_b: bool = False
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
    samples_to_decide: int | None = Field(
        default=None, description="UNCERTAIN only: about how many samples per side would decide it, when more would"
    )


class ControlDifference(_Model):
    """A variable that differs between the two runs, with its value in each."""

    variable: str
    a: str | None
    b: str | None


class Remeasure(_Model):
    """A matched case whose verdict a new measurement could settle, and what that measurement needs."""

    case_id: str
    verdict: Verdict
    need: Literal["more samples", "a quiet rerun", "a timed run on both sides"]
    samples_per_side: int | None = Field(description="With need 'more samples': about how many would decide it")
    why: str


class ComparisonSummary(_Model):
    """What the matched cases came to: how many could be compared, the verdicts' shares and the bands used."""

    timed_cases: int = Field(description="Cases timed in at least one run, unmatched ones included")
    comparable: int = Field(description="Cases timed in both runs: FASTER, SAME, SLOWER or UNCERTAIN")
    not_measured: int = Field(
        description="Matched cases timed in neither run (skipped, not timed or failed on both sides)"
    )
    comparable_share: float | None = Field(description="comparable / timed_cases")
    same_share: float | None = Field(description="SAME / comparable")
    changed_share: float | None = Field(description="(FASTER + SLOWER) / comparable")
    uncertain_share: float | None = Field(description="UNCERTAIN / comparable")
    median_ratio: float | None = Field(
        description="Median B/A over the comparable cases: a run-wide shift (machine drift or a global change) shows here"
    )
    band_min: float | None = Field(description="Narrowest equivalence band over the comparable cases")
    band_median: float | None
    band_max: float | None
    to_remeasure: int = Field(description="Cases a new measurement could settle (`cases_to_remeasure`)")


ProbeVerdictName = Literal["FASTER", "SAME", "SLOWER", "UNCERTAIN"]


class ProbeVerdict(_Model):
    """A probe's cases taken together: the median of their B/A (advisor/comparison/probe_verdict.py)."""

    probe: str
    cases: int = Field(description="Cases timed in both runs")
    ratio: float = Field(description="Median of B/A over the cases, each read on its judged visit")
    ci_low: float
    ci_high: float
    machine_ratio: float | None = Field(description="The reference kernel's B/A while the probe ran (None: not timed)")
    band: float = Field(description="Half-width of the equivalence band the CI is judged against")
    verdict: ProbeVerdictName

    def line(self) -> str:
        """'gemm SLOWER: 1.094x (CI 1.089-1.099x, band +/-2.5%, 17 cases, reference kernel 0.96x)'."""
        machine = f", reference kernel {self.machine_ratio:.2f}x" if self.machine_ratio else ""
        return (
            f"{self.probe} {self.verdict}: {self.ratio:.3f}x (CI {self.ci_low:.3f}-{self.ci_high:.3f}x, "
            f"band +/-{self.band * 100:.3g}%, {self.cases} cases{machine})"
        )


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
    summary: ComparisonSummary
    accuracy_regressions: list[str] = Field(description="case_ids that pass their tolerance in A and fail in B")
    machine_ratios: dict[str, float] = Field(
        default_factory=dict,
        description="Per probe: the machine-speed reference kernel's median B/A (advisor/comparison/machine.py)",
    )
    probes: list[ProbeVerdict] = Field(
        default_factory=list,
        description="Per probe with enough comparable cases: the verdict on all its cases together",
    )
