"""Express measured throughput as a share of the device's theoretical peak from `advisor env`."""

from __future__ import annotations

from collections.abc import Iterable

from advisor.environment.models import Environment
from probes.models import Metric, ProbeCase

# CaseKey.device kinds -> PeakFigures.kind
_PEAK_KIND = {"cpu": "cpu", "cuda": "gpu", "npu": "npu"}


def add_peak_shares(cases: Iterable[ProbeCase], environment: Environment) -> None:
    """Add a `pct_of_peak` metric to every case with a `tflops` metric and a known peak for its dtype."""
    for case in cases:
        throughput = case.metrics.get("tflops")
        peak = environment.peak_for(_PEAK_KIND.get(case.key.device, case.key.device))
        if throughput is None or peak is None:
            continue
        peak_tflops = peak.tflops.get(case.key.dtype)
        if peak_tflops:
            case.metrics["pct_of_peak"] = Metric(value=100.0 * throughput.value / peak_tflops, unit="%")
