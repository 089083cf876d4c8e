"""Express measured throughput as a share of the device's theoretical peak from `advisor env`."""

from __future__ import annotations

from collections.abc import Iterable

from probes.environment.models import Environment
from probes.models import Metric, ProbeCase

# CaseKey.device kinds -> PeakFigures.kind ('xla' is decided by the machine: a TPU or a Neuron device)
_PEAK_KIND = {"cpu": "cpu", "cuda": "gpu", "npu": "npu", "hpu": "hpu", "mps": "gpu"}


def peak_kind(device: str, environment: Environment) -> str:
    """The peak-table kind of a measured device kind ('cuda' -> 'gpu', 'xla' -> 'tpu' or 'neuron')."""
    kind = device.split(":")[0]
    if kind == "xla":
        return "tpu" if environment.tpu is not None and environment.tpu.devices else "neuron"
    return _PEAK_KIND.get(kind, kind)


def add_peak_shares(cases: Iterable[ProbeCase], environment: Environment) -> None:
    """Add a `pct_of_peak` metric to every case with a `tflops` metric and a known peak for its dtype."""
    for case in cases:
        throughput = case.metrics.get("tflops")
        peak = environment.peak_for(peak_kind(case.key.device, environment))
        if throughput is None or peak is None:
            continue
        peak_tflops = peak.tflops.get(case.key.dtype)
        if peak_tflops:
            case.metrics["pct_of_peak"] = Metric(value=100.0 * throughput.value / peak_tflops, unit="%")
