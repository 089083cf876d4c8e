"""Scaling readings: strong-scaling efficiency of the data-parallel training step, 1 -> the largest world measured.

The collectives concern's switch condition `evidence.strong_scaling_efficiency` is checked against it.
Hardware-specific (not portable): a CPU/gloo run says nothing about NCCL or HCCL on the target.
"""

from __future__ import annotations

from collections.abc import Sequence

from probes.models import ProbeCase
from probes.reporting import Reading, make_reading
from probes.scaling.analysis import strong_scaling_points


def scaling_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """strong_scaling_efficiency: T1 / (N x TN) at the largest N measured, citing the serial and the N-process case."""
    points = strong_scaling_points(cases)
    serial = next((point for point in points if point.world == 1), None)
    parallel = [point for point in points if point.world > 1]
    if serial is None or not parallel:
        return []
    widest = parallel[-1]
    by_id = {case.key.case_id: case for case in cases}
    backend = by_id[widest.case_id].key.options.get("backend", "?")
    figure = (
        f"strong scaling 1 -> {widest.world} processes ({backend}): efficiency {widest.efficiency:.2f}"
        f" (step {serial.seconds * 1e3:.1f} ms -> {widest.seconds * 1e3:.1f} ms, global batch fixed)"
    )
    return [make_reading("strong_scaling_efficiency", widest.efficiency, figure,
                         [by_id[serial.case_id], by_id[widest.case_id]])]  # fmt: skip
