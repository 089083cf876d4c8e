"""Decision records: MADR-compatible Markdown with YAML front matter, evidence beside it, versioned in git."""

from advisor.records.decision import WrittenDecision, write_decision
from advisor.records.models import (
    RECORD_SCHEMA_VERSION,
    DecisionRecord,
    EnvironmentSummary,
    EvidenceRef,
    RecordError,
    RecordFrontMatter,
    RecordProblem,
    RecordStatus,
)
from advisor.records.slug import slugify
from advisor.records.store import accept, find_record, load_records, supersede

__all__ = [
    "RECORD_SCHEMA_VERSION",
    "DecisionRecord",
    "EnvironmentSummary",
    "EvidenceRef",
    "RecordError",
    "RecordFrontMatter",
    "RecordProblem",
    "RecordStatus",
    "WrittenDecision",
    "accept",
    "find_record",
    "load_records",
    "slugify",
    "supersede",
    "write_decision",
]
