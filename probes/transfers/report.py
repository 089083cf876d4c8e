"""What the transfers probe's evidence says: pinned against pageable copies, and pipeline overlap."""

from __future__ import annotations

from collections.abc import Sequence

from probes.models import ProbeCase
from probes.reporting import ProbeReport, Table, metric_text, timed_cases
from probes.transfers.analysis import transfer_lines
from probes.units import format_seconds


def transfers_table(cases: Sequence[ProbeCase]) -> Table:
    """Host-device copies that ran (accelerators only): time and bandwidth."""
    rows = [(case.key.implementation, str(case.key.options.get("transfer", "-")), case.key.shape_text,
             format_seconds(case.timing.stats.median), metric_text(case, "gbps", ".3g"))  # type: ignore[union-attr]
            for case in timed_cases(cases)]  # fmt: skip
    header = ("implementation", "transfer", "size", "median", "GB/s")
    return Table("Host-device transfers", header, rows)


REPORT = ProbeReport("transfers", order=90, findings=transfer_lines, table=transfers_table)
