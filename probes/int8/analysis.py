"""Speedups of int8 cases over their float baselines, computed from measured ProbeCases.

The harness measures each case alone, so a ratio across cases (an int8 GEMM against the fp32 and
bf16 GEMMs of the same shape) is derived here, after the run, from the cases' median times.
"""

from __future__ import annotations

from collections.abc import Iterable

from advisor.environment.models import Dtype
from probes.models import OptionValue, ProbeCase

FLOAT_DTYPES: frozenset[Dtype] = frozenset({"fp32", "fp16", "bf16"})
# An int8 case's option naming the float dtype it runs beside (its activations); it picks the
# baseline and is not part of what must match.
FLOAT_DTYPE_OPTION = "float_dtype"


def _median_s(case: ProbeCase) -> float | None:
    if case.status != "ok" or case.timing is None or case.timing.stats.median <= 0:
        return None
    return case.timing.stats.median


def _pairing_key(case: ProbeCase) -> tuple[str, str, str, str, tuple[tuple[str, OptionValue], ...]]:
    key = case.key
    shape = ",".join(f"{name}={size}" for name, size in key.shape.items())
    options = tuple(sorted((name, value) for name, value in key.options.items() if name != FLOAT_DTYPE_OPTION))
    return key.probe, key.device, shape, key.layout, options


def int8_speedups(cases: Iterable[ProbeCase], versus: Dtype | None = None) -> dict[str, float]:
    """int8 case_id -> float baseline median / int8 median, for every timed int8 case with a timed baseline.

    The baseline is a timed `baseline=True` case of a float dtype with the same probe, device, shape,
    layout and options. When the int8 case names its `float_dtype`, only that dtype is eligible;
    `versus` restricts it further. Among several eligible baselines (fp32 and bf16 GEMMs), the
    fastest is used: it is the float path int8 has to beat.
    """
    listed = list(cases)
    baselines: dict[tuple[object, ...], dict[Dtype, float]] = {}
    for case in listed:
        median = _median_s(case)
        if case.baseline and case.key.dtype in FLOAT_DTYPES and median is not None:
            by_dtype = baselines.setdefault(_pairing_key(case), {})
            by_dtype[case.key.dtype] = min(median, by_dtype.get(case.key.dtype, median))
    speedups: dict[str, float] = {}
    for case in listed:
        median = _median_s(case)
        if case.key.dtype != "int8" or median is None:
            continue
        wanted = {case.key.options.get(FLOAT_DTYPE_OPTION), versus} - {None}
        eligible = [
            seconds
            for dtype, seconds in baselines.get(_pairing_key(case), {}).items()
            if all(dtype == one for one in wanted)
        ]
        if eligible:
            speedups[case.key.case_id] = min(eligible) / median
    return speedups
