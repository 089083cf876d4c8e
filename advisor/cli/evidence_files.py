"""Evidence files named on the command line: read with the one reader, and a warning for what is legitimate but risky."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from advisor.cli.output import warn

if TYPE_CHECKING:
    from probes.models import Evidence


def load_evidence(path: Path) -> Evidence:
    """Evidence.load (a missing or malformed file is its one-line error); a warning naming the probes it holds
    that this advisor does not have (a third-party probe folder elsewhere, or a typo)."""
    from probes.models import Evidence
    from probes.registry import EXTRA_PROBE_DIRS_ENV, unknown_probes

    evidence = Evidence.load(path)
    unknown = unknown_probes(evidence)
    if unknown:
        names = ", ".join(repr(name[:40]) for name in unknown[:5]) + (
            f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        )
        warn(
            f"{path}: probe(s) {names} are not probes of this advisor (nor in {EXTRA_PROBE_DIRS_ENV}): "
            "their readings are not used and a review cannot re-run them"
        )
    return evidence
