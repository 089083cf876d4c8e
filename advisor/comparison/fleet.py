"""Evidence from several machines (a fleet): each machine compared with the first, and which matches the target.

`compare_fleet` reuses `compare_evidence` pairwise (the reference against each other machine), so
every verdict keeps its statistics; the fleet view adds the machines' identities and, per case,
the ratio on each machine.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from advisor.comparison.compare import compare_evidence
from advisor.comparison.models import Comparison, VerdictRule
from probes.environment.family import device_family
from probes.models import Evidence
from probes.statistics import geometric_mean

FLEET_SCHEMA_VERSION = 1


class Machine(BaseModel):
    """One evidence file's machine: its name for people, its hardware family and whether it is the target."""

    model_config = ConfigDict(extra="forbid")

    file: str
    machine: str = Field(description="First 8 hex digits of the hostname's sha256")
    hardware: list[str] = Field(description="Hardware families of the devices its cases ran on")
    device: str
    torch: str | None
    on_target: bool | None = Field(description="Runs on the target hardware; None when no target was given")


class FleetMember(BaseModel):
    """One machine other than the reference, compared with it."""

    model_config = ConfigDict(extra="forbid")

    machine: Machine
    comparison: Comparison
    geomean_ratio: float | None = Field(description="Geometric mean of its timed B/A ratios over matched cases")


class FleetComparison(BaseModel):
    """The reference machine and every other machine compared with it."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = FLEET_SCHEMA_VERSION
    target: str | None
    reference: Machine
    members: list[FleetMember]

    def on_target(self) -> list[Machine]:
        """The machines whose hardware is the target's."""
        return [
            machine for machine in (self.reference, *(member.machine for member in self.members)) if machine.on_target
        ]


def describe_machine(file: str, evidence: Evidence, target: str | None) -> Machine:
    """Who measured this evidence and on what."""
    devices = sorted({case.key.device for case in evidence.cases}) or ["cpu"]
    families = sorted({device_family(device, evidence.environment) or "unknown" for device in devices})
    environment = evidence.environment
    return Machine(
        file=file,
        machine=environment.hostname_hash[:8],
        hardware=families,
        device=evidence.device_name(),
        torch=environment.torch.version if environment.torch else None,
        on_target=None if target is None else target in families,
    )


def geometric_mean_ratio(comparison: Comparison) -> float | None:
    """exp(mean(log ratio)) over the matched cases that were timed on both machines."""
    ratios = [case.timing.ratio for case in comparison.cases if case.timing is not None and case.timing.ratio > 0]
    return geometric_mean(ratios) if ratios else None


def compare_fleet(
    files: Sequence[tuple[str, Evidence]], target: str | None = None, rule: VerdictRule | None = None
) -> FleetComparison:
    """The first file is the reference; every other file is compared with it."""
    (reference_file, reference), *others = files
    members = []
    for file, evidence in others:
        comparison = compare_evidence(reference, evidence, rule)
        members.append(
            FleetMember(
                machine=describe_machine(file, evidence, target),
                comparison=comparison,
                geomean_ratio=geometric_mean_ratio(comparison),
            )
        )
    return FleetComparison(
        target=target, reference=describe_machine(reference_file, reference, target), members=members
    )
