"""What a stopped `assess` or `review` keeps: the evidence measured before the signal, in the records folder
under a name that is never a record's (`interrupted-<UTC time>.evidence.json`), so nothing is numbered,
listed or committed for it, and the user can look at it or pass it to `assess --evidence` later."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from probes.files.atomic_write import write_temporary
from probes.models import Evidence

INTERRUPTED_PREFIX = "interrupted-"


def keep_interrupted_evidence(evidence: Evidence, records_dir: Path) -> Path:
    """Save `evidence` (marked interrupted) beside the records under a new name, never over a file; its path."""
    kept = evidence if evidence.interrupted else evidence.model_copy(update={"interrupted": True})
    records_dir.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    stem = records_dir / f"{INTERRUPTED_PREFIX}{stamp}"
    temporary = write_temporary(stem.with_name(stem.name + ".evidence.json"), kept.to_text())
    try:
        for attempt in range(1, 1000):
            target = stem.with_name(f"{stem.name}{'' if attempt == 1 else f'-{attempt}'}.evidence.json")
            try:
                os.link(temporary, target)  # fails on an existing name: another stopped run's file stays
            except FileExistsError:
                continue
            except OSError:  # a file system without hard links: a rename, after a look that the name is free
                if target.exists():
                    continue
                os.replace(temporary, target)
            return target
        raise FileExistsError(f"{stem}: no free name for the interrupted evidence")
    finally:
        temporary.unlink(missing_ok=True)


def measured_summary(evidence: Evidence) -> str:
    """`3 cases measured (2 ok)`: how much an interrupted run kept."""
    ok = sum(case.status == "ok" for case in evidence.cases)
    return f"{len(evidence.cases)} case(s) planned, {ok} measured ok"
