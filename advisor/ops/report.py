"""The CoverageReport as plain text lines: a header, one row per operator, the reasons, the notes."""

from __future__ import annotations

from advisor.ops.models import VERDICTS, CoverageReport, OperatorVerdict
from probes.terminal_text import one_line

_HEADINGS = ("VERDICT", "OPERATOR", "VERSION", "NODES", "SOURCE")


def verdict_words(verdict: str) -> str:
    """'needs-decomposition' -> 'needs decomposition'."""
    return verdict.replace("-", " ")


def report_lines(report: CoverageReport) -> list[str]:
    """The report as printed by `advisor ops` without --json."""
    opsets = ", ".join(f"{domain} {version}" for domain, version in report.opset_imports.items())
    made_by = f"{report.producer}, " if report.producer else ""
    nodes = sum(item.operator.nodes for item in report.operators)
    counts = ", ".join(f"{verdict_words(verdict)} {report.counts[verdict]}" for verdict in VERDICTS)
    lines = [
        f"model: {report.model} ({made_by}IR {report.ir_version}, opsets: {opsets})",
        f"target: {report.target.name}, {report.target.description}",
        f"{len(report.operators)} operators in {nodes} nodes; {counts}",
        "",
    ]
    rows = [_row(item) for item in report.operators]
    widths = [max(len(row[column]) for row in (_HEADINGS, *rows)) for column in range(len(_HEADINGS) - 1)]

    def aligned(row: tuple[str, ...]) -> str:
        return "  ".join([*(cell.ljust(width) for cell, width in zip(row, widths, strict=False)), row[-1]]).rstrip()

    lines.append(aligned(_HEADINGS))
    for row, item in zip(rows, report.operators, strict=True):
        lines.append(aligned(row))
        if item.verdict != "maps-directly":  # the reason, under the operator, says why it is not direct
            body = f"-> {', '.join(item.decomposes_into)}: " if item.decomposes_into else ""
            lines.append(" " * (widths[0] + 2) + f"{body}{item.reason}")
    lines += [f"note: {note.text} ({note.source})" for note in report.notes]
    return [one_line(line) for line in lines]  # a name from the model file starts no line of its own


def _row(item: OperatorVerdict) -> tuple[str, str, str, str, str]:
    operator = item.operator
    version = operator.since_version if operator.since_version is not None else operator.opset
    label = f"{operator.domain}::{operator.op_type}"
    # Escaped before the columns are measured: a domain's control characters widen its cell, not break the row.
    return (verdict_words(item.verdict), one_line(label), str(version), str(operator.nodes), one_line(item.source))
