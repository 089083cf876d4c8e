"""Readings: the figures the rules rest on, each read off one hardware family's probe cases.

Each probe declares its own reader in its folder (`probes/<name>/report.py`, `ProbeReport.readings`),
reusing its analysis, so the numbers match what `advisor probe` printed. Every reading keeps the case
ids it came from.
"""

from __future__ import annotations

from collections.abc import Sequence

from probes.models import ProbeCase
from probes.reporting import Reading, cases_by_probe, probe_reports


def read_cases(cases: Sequence[ProbeCase]) -> list[Reading]:
    """Every reading the cases support, probe by probe in name order, each probe given its own cases."""
    grouped = cases_by_probe(cases)
    readings: list[Reading] = []
    for report in sorted(probe_reports(), key=lambda report: report.probe):
        if report.readings is not None:
            readings.extend(report.readings(grouped.get(report.probe, [])))
    return readings


__all__ = ["Reading", "read_cases"]
