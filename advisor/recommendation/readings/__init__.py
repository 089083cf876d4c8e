"""Readings: the figures the rules rest on, each read off one hardware family's probe cases.

They reuse the probes' own analysis (dtype_speedups, fit_growth, int8_speedups), so the numbers
match what `advisor probe` printed. Every reading keeps the case ids it came from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from advisor.recommendation.readings.attention import attention_readings
from advisor.recommendation.readings.common import Reading
from advisor.recommendation.readings.dynamic import dynamic_readings
from advisor.recommendation.readings.fusion import fusion_readings
from advisor.recommendation.readings.gemm import gemm_readings
from advisor.recommendation.readings.hotops import hotops_readings
from advisor.recommendation.readings.int8 import int8_readings
from advisor.recommendation.readings.layout import layout_readings
from advisor.recommendation.readings.scaling import scaling_readings
from probes.models import ProbeCase

READERS: dict[str, Callable[[Sequence[ProbeCase]], list[Reading]]] = {
    "attention": attention_readings,
    "dynamic": dynamic_readings,
    "fusion": fusion_readings,
    "gemm": gemm_readings,
    "hotops": hotops_readings,
    "int8": int8_readings,
    "layout": layout_readings,
    "scaling": scaling_readings,
}


def read_cases(cases: Sequence[ProbeCase]) -> list[Reading]:
    """Every reading the cases support, probe by probe in name order, each probe given its own cases."""
    readings: list[Reading] = []
    for probe, reader in READERS.items():
        readings.extend(reader([case for case in cases if case.key.probe == probe]))
    return readings


__all__ = ["READERS", "Reading", "read_cases"]
