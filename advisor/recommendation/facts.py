"""Evidence facts: the readings of every evidence file, labelled with where they were measured.

A fact measured on the profile's target hardware family is a target fact; one measured elsewhere is
proxy evidence. Proxy facts about algorithms and compilers (memory growth, quantization error,
recompilations) are portable and may inform a choice when the target has no measurement; proxy
facts about speed never decide anything for the target and are only reported.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from advisor.knowledge.claims import HardwareFamily
from advisor.recommendation.models import EvidenceSource
from advisor.recommendation.readings import read_cases
from advisor.recommendation.settled import Settlement, Side, settle
from probes.environment.family import device_family
from probes.models import Evidence, Measurement, ProbeCase
from probes.reporting import ReadingSpec, declared_reading


def is_portable(name: str) -> bool:
    """True for facts another hardware family's measurement may stand in for: the `portable` flag of the
    reading's spec, declared by the probe that produces it (an undeclared name is hardware-specific)."""
    declared = declared_reading(name)
    return declared is not None and declared[1].portable


def evidence_metric(reading: ReadingSpec) -> str:
    """'evidence.<name>': how switch conditions (and the records that store them) name a reading."""
    return f"evidence.{reading.name}"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Fact(_Model):
    """One measured figure, the cases behind it, and where it was measured."""

    name: str
    value: float
    figure: str
    case_ids: tuple[str, ...]
    hardware: HardwareFamily | None
    on_target: bool
    portable: bool
    noisy_cases: int = 0
    low: float | None = None
    high: float | None = None
    settlement: Settlement | None = None  # for a speedup over pairs of cases: its CI and band (settled.py)

    def settled_side(self, threshold: float = 1.0) -> Side:
        """Above, below or the same as `threshold` as the samples settle it; a figure without pairs of timed cases
        behind it (a reading that aggregates no pairs) is taken at its value."""
        if self.settlement is None:
            return "above" if self.value >= threshold else "below"
        return self.settlement.side(threshold)


class QualityCounts(_Model):
    """How the cases went: ok (of which noisy), failed, not-timed (numerics only), skipped."""

    ok: int = 0
    noisy: int = 0
    failed: int = 0
    not_timed: int = 0
    skipped: int = 0

    @property
    def attempted(self) -> int:
        """Cases that ran or tried to (skipped ones never did)."""
        return self.ok + self.failed + self.not_timed


class EvidenceFacts(_Model):
    """Everything the rules may read from the evidence, for one target hardware family."""

    target: HardwareFamily
    facts: tuple[Fact, ...] = ()
    quality: QualityCounts = QualityCounts()
    sources: tuple[EvidenceSource, ...] = ()
    host_busy: bool = False

    def usable(self, name: str) -> Fact | None:
        """The target's fact; failing that a portable proxy fact; never a hardware-specific proxy fact."""
        for fact in self.facts:
            if fact.name == name and (fact.on_target or fact.portable):
                return fact
        return None

    def unapplied_proxy(self, name: str) -> Fact | None:
        """A hardware-specific proxy fact the target lacks: reported, never applied."""
        if self.usable(name) is not None:
            return None
        return next((fact for fact in self.facts if fact.name == name and not fact.on_target), None)

    @property
    def proxy(self) -> bool:
        """Some evidence was measured on another hardware family."""
        return any(not source.on_target for source in self.sources)

    @property
    def timed_on_target(self) -> bool:
        """Some figure was read from cases timed on the target: evidence the choices can rest on."""
        return self.quality.ok > 0 and any(fact.on_target for fact in self.facts)

    def observed(self) -> dict[str, float]:
        """'evidence.<name>' -> value of every usable fact: what switch conditions are checked against."""
        return {
            evidence_metric(ReadingSpec(fact.name)): fact.value for fact in self.facts if self.usable(fact.name) is fact
        }


def _timed_pairs(
    pairs: Sequence[tuple[str, str]], by_id: dict[str, ProbeCase]
) -> list[tuple[Measurement, Measurement]]:
    """The timings of each (baseline, compared) pair of case ids where both were timed."""
    timed = []
    for baseline_id, compared_id in pairs:
        baseline, compared = by_id.get(baseline_id), by_id.get(compared_id)
        if (
            baseline is not None
            and compared is not None
            and baseline.timing is not None
            and compared.timing is not None
        ):
            timed.append((baseline.timing, compared.timing))
    return timed


def evidence_facts(evidence_list: Sequence[Evidence], target: HardwareFamily) -> EvidenceFacts:
    """Group every case by the hardware family it ran on, read each group, label the facts."""
    groups: dict[HardwareFamily | None, list[ProbeCase]] = defaultdict(list)
    sources: list[EvidenceSource] = []
    busy = False
    for evidence in evidence_list:
        busy = busy or bool(evidence.host_contention and evidence.host_contention.busy)
        per_device: dict[str, int] = defaultdict(int)
        for case in evidence.cases:
            groups[device_family(case.key.device, evidence.environment)].append(case)
            per_device[case.key.device] += 1
        for device, count in sorted(per_device.items()):
            family = device_family(device, evidence.environment)
            sources.append(EvidenceSource(hardware=family, device=device, cases=count, on_target=family == target))
    facts: list[Fact] = []
    for family in sorted(groups, key=lambda name: (name != target, name is None, name or "")):
        by_id = {case.key.case_id: case for case in groups[family]}
        for reading in read_cases(groups[family]):
            facts.append(
                Fact(
                    name=reading.name,
                    value=reading.value,
                    figure=reading.figure,
                    case_ids=reading.case_ids,
                    hardware=family,
                    on_target=family == target,
                    portable=is_portable(reading.name),
                    noisy_cases=reading.noisy_cases,
                    low=reading.low,
                    high=reading.high,
                    settlement=settle(_timed_pairs(reading.pairs, by_id)),
                )
            )
    cases = [case for group in groups.values() for case in group]
    return EvidenceFacts(
        target=target, facts=tuple(facts), quality=quality_counts(cases), sources=tuple(sources), host_busy=busy
    )


def quality_counts(cases: Sequence[ProbeCase]) -> QualityCounts:
    """Count the cases by status, and the noisy ones among the ok ones."""
    counts: dict[str, int] = defaultdict(int)
    for case in cases:
        counts[case.status.replace("-", "_")] += 1
        if case.status == "ok" and case.timing is not None and case.timing.stats.noisy:
            counts["noisy"] += 1
    return QualityCounts(**counts)
