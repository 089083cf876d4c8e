"""What the transfers probe's evidence says: pinned against pageable copies, and the pipeline's overlap gain."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from probes.models import ProbeCase
from probes.reporting import ProbeReport, Table, metric_text, timed_cases
from probes.units import format_bytes, format_seconds


@dataclass(frozen=True)
class PairedTimes:
    """Two implementations on the same case: the gain is baseline time / other time."""

    label: str
    baseline_s: float
    other_s: float
    baseline_gbps: float | None
    other_gbps: float | None

    @property
    def gain(self) -> float:
        """How many times faster `other` is than the baseline."""
        return self.baseline_s / self.other_s


def paired(cases: Iterable[ProbeCase], baseline: str, other: str) -> list[PairedTimes]:
    """Every case group where both implementations ran ok, in the order the baseline appears."""
    timed = {
        (case.key.implementation, case.key.group_id): case
        for case in cases
        if case.key.probe == "transfers" and case.status == "ok" and case.timing is not None
    }
    pairs = []
    for (implementation, group), first in timed.items():
        second = timed.get((other, group))
        if implementation != baseline or second is None or first.timing is None or second.timing is None:
            continue
        pairs.append(
            PairedTimes(
                label=f"{first.key.options['transfer']} {format_bytes(first.key.shape['bytes'])}",
                baseline_s=first.timing.stats.median,
                other_s=second.timing.stats.median,
                baseline_gbps=first.metrics["gbps"].value if "gbps" in first.metrics else None,
                other_gbps=second.metrics["gbps"].value if "gbps" in second.metrics else None,
            )
        )
    return pairs


def transfer_lines(cases: Iterable[ProbeCase]) -> list[str]:
    """Pinned vs pageable per direction and size; pipelined vs serial (the overlap gained); or why nothing ran."""
    listed = list(cases)
    lines = []
    for pair in paired(listed, "pageable", "pinned"):
        lines.append(
            f"{pair.label}: pinned {pair.other_gbps:.3g} GB/s vs pageable {pair.baseline_gbps:.3g} GB/s"
            f" ({pair.gain:.2f}x)"
        )
    for pair in paired(listed, "serial", "pipelined"):
        lines.append(
            f"{pair.label} copy in, matmul, copy out: 3-stream pipeline {pair.gain:.2f}x faster than serial"
            " (the overlap gained)"
        )
    if not lines and listed and all(case.status == "skipped" for case in listed):
        lines.append(f"skipped: {listed[0].reason}")
    return lines


def transfers_table(cases: Sequence[ProbeCase]) -> Table:
    """Host-device copies that ran (accelerators only): time and bandwidth."""
    rows = [
        (
            case.key.implementation,
            str(case.key.options.get("transfer", "-")),
            case.key.shape_text,
            format_seconds(case.timing.stats.median),  # type: ignore[union-attr]
            metric_text(case, "gbps", ".3g"),
        )
        for case in timed_cases(cases)
    ]
    header = ("implementation", "transfer", "size", "median", "GB/s")
    return Table("Host-device transfers", header, rows)


REPORT = ProbeReport("transfers", order=90, findings=transfer_lines, table=transfers_table)
