"""The Evidence section of a record as plain tables (header + rows of strings), read off the probe cases.

Each probe declares its table and findings in its own folder (`probes/<name>/report.py`), reusing
its analysis, so the record says what `advisor probe` says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from probes.models import Evidence
from probes.reporting import cases_by_probe, probe_reports


@dataclass(frozen=True)
class EvidenceTable:
    """One table of the Evidence section, with the findings written under it."""

    title: str
    header: tuple[str, ...]
    rows: Sequence[Sequence[str]]
    findings: list[str] = field(default_factory=list)


def evidence_tables(evidence: Evidence) -> list[EvidenceTable]:
    """The tables of the probes this evidence holds cases of, in the probes' report order; none empty."""
    grouped = cases_by_probe(evidence.cases)
    tables = []
    for report in probe_reports():
        cases = grouped.get(report.probe)
        if not cases or report.table is None:
            continue
        table = report.table(cases)
        if table.rows:
            findings = report.findings(cases) if report.findings is not None else []
            tables.append(EvidenceTable(table.title, table.header, table.rows, findings))
    return tables
