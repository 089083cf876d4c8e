"""How far the machine itself moved between two runs, per probe: the reference kernel's ratio B/A.

Each probe child times a fixed kernel as it starts (probes/harness/reference.py). The median of a
probe's reference timings in B over its median in A says whether the machine ran slower or faster
while that probe ran, whatever the code under test did. It is read only when both runs have the
reference for the probe and ran the same torch: another torch is other code, and its reference
would move for that reason.
"""

from __future__ import annotations

import statistics

from probes.models import Evidence


def _references(evidence: Evidence) -> dict[str, list[float]]:
    return {run.probe: list(run.reference_s) for run in evidence.probe_runs if run.reference_s}


def machine_ratios(a: Evidence, b: Evidence) -> dict[str, float]:
    """Per probe timed with the reference in both runs: median reference seconds in B / in A."""
    torch_a, torch_b = a.environment.torch, b.environment.torch
    if (torch_a.version if torch_a else None) != (torch_b.version if torch_b else None):
        return {}
    references_a, references_b = _references(a), _references(b)
    ratios = {}
    for probe in sorted(set(references_a) & set(references_b)):
        before = statistics.median(references_a[probe])
        if before > 0:
            ratios[probe] = statistics.median(references_b[probe]) / before
    return ratios
