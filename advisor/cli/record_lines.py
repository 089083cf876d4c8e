"""The lines of `advisor records list`, one record a line, fitted to the width of the terminal.

Each line keeps the record's number, status and review date whole. What a narrow terminal cannot hold goes
in this order: the record's date, then the end of the tier-1 list, then the list itself; a title is cut
(an ellipsis in its last cell) only as far as TITLE_MIN cells, and is never the first thing to go.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.cells import cell_len, set_cell_size

from probes.terminal_text import one_line

if TYPE_CHECKING:
    from advisor.records.models import DecisionRecord

TITLE_MIN = 24  # cut shorter, a title stops telling one decision from another
TIER1_MIN = 12  # "[cublas, f…]": narrower, the tier-1 list is left out
ELLIPSIS = "…"
# (the record's date shown, the tier-1 list shown), richest first
LAYOUTS = ((True, True), (False, True), (False, False))


@dataclass(frozen=True)
class RecordLine:
    """What one line shows of a record, as printed (control characters already escaped)."""

    number: int
    status: str
    date: str
    review_by: str
    title: str
    tier1: str
    committed: bool

    @classmethod
    def of(cls, record: DecisionRecord, committed: bool) -> RecordLine:
        """The line of a record; `committed` False adds "(not committed)"."""
        front = record.front
        return cls(
            record.id,
            one_line(front.status),
            front.date.isoformat(),
            front.review_by.isoformat(),
            one_line(front.title),
            one_line(", ".join(front.tier1)),
            committed,
        )


def fitted(text: str, width: int) -> str:
    """`text` cut to `width` terminal cells at most, an ellipsis in its last cell when anything was cut."""
    if cell_len(text) <= width:
        return text
    # rstrip: no space before the ellipsis, whether cut at a space or where a wide character would not fit
    return set_cell_size(text, width - 1).rstrip() + ELLIPSIS if width > 0 else ""


def record_lines(rows: Sequence[RecordLine], width: int) -> list[str]:
    """One line per record, none wider than `width` cells: the richest layout in which every title keeps
    TITLE_MIN cells (or all of itself), else the leanest one."""
    status_width = max((len(row.status) for row in rows), default=0)
    shown_date, shown_tier1 = LAYOUTS[-1]
    for shown_date, shown_tier1 in LAYOUTS:
        rooms = (_title_room(row, status_width, shown_date, shown_tier1, width) for row in rows)
        if all(room >= min(cell_len(row.title), TITLE_MIN) for row, room in zip(rows, rooms)):
            break
    return [_line(row, status_width, shown_date, shown_tier1, width) for row in rows]


def _head(row: RecordLine, status_width: int, shown_date: bool) -> str:
    date = f"  {row.date}" if shown_date else ""
    return f"{row.number:04d}  {row.status:<{status_width}}{date}  review by {row.review_by}  "


def _tail(row: RecordLine) -> str:
    return "" if row.committed else "  (not committed)"


def _title_room(row: RecordLine, status_width: int, shown_date: bool, shown_tier1: bool, width: int) -> int:
    """The cells left for the title once the rest of the line, and the shortest tier-1 list, have theirs."""
    tier1 = min(cell_len(row.tier1) + 2, TIER1_MIN) + 2 if shown_tier1 else 0
    return width - cell_len(_head(row, status_width, shown_date)) - cell_len(_tail(row)) - tier1


def _line(row: RecordLine, status_width: int, shown_date: bool, shown_tier1: bool, width: int) -> str:
    head, tail = _head(row, status_width, shown_date), _tail(row)
    title = fitted(row.title, _title_room(row, status_width, shown_date, shown_tier1, width))
    tier1 = ""
    if shown_tier1:
        room = width - cell_len(head) - cell_len(title) - cell_len(tail) - 4  # two spaces and the brackets
        tier1 = f"  [{fitted(row.tier1, room)}]"
    return fitted(f"{head}{title}{tier1}{tail}", width)  # a terminal too narrow even for the leanest layout
