"""The charts and tables of each evidence file, made once per content for a whole site.

Records often share evidence: the same bytes, copied under each record's own file name (a fleet's
suite reused by several decisions). Keyed by the file's sha256, each content is drawn and tabulated
once, however many records show it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from advisor.records.evidence_tables import EvidenceTable, evidence_tables
from advisor.site.catalog import EvidenceFile
from advisor.site.evidence_charts import Chart, evidence_charts


@dataclass
class EvidenceViews:
    """Charts and tables made so far, by the evidence file's sha256 (a file that does not read has none)."""

    charts_by_sha256: dict[str, list[Chart]] = field(default_factory=dict)
    tables_by_sha256: dict[str, list[EvidenceTable]] = field(default_factory=dict)

    def charts(self, file: EvidenceFile) -> list[Chart]:
        """Every chart of the file's evidence, drawn on first use."""
        if file.evidence is None:
            return []
        if file.sha256 not in self.charts_by_sha256:
            self.charts_by_sha256[file.sha256] = evidence_charts(file.evidence)
        return self.charts_by_sha256[file.sha256]

    def tables(self, file: EvidenceFile) -> list[EvidenceTable]:
        """Every evidence table (with its findings) of the file's evidence, made on first use."""
        if file.evidence is None:
            return []
        if file.sha256 not in self.tables_by_sha256:
            self.tables_by_sha256[file.sha256] = evidence_tables(file.evidence)
        return self.tables_by_sha256[file.sha256]
