"""Speedups of int8 cases over their float baselines, computed from measured ProbeCases.

The harness measures each case alone, so a ratio across cases (an int8 GEMM against the fp32 and
bf16 GEMMs of the same shape) is derived here, after the run, from the cases' median times.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from probes.environment.models import Dtype
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


# --- whole models (op=model): a reference model in ONNX Runtime, fp32 against int8 -------------------

MODEL_OP = "model"  # the case option `op` of the whole-model cases; option `model` names the model type


def is_model_case(case: ProbeCase) -> bool:
    """A whole-model case (ONNX Runtime fp32 or int8 of a reference model)."""
    return case.key.options.get("op") == MODEL_OP


@dataclass(frozen=True)
class ModelResult:
    """One model type's int8 case, its timed fp32 twin when there is one, the speedup and the error."""

    model: str
    int8: ProbeCase
    fp32: ProbeCase | None
    speedup: float | None  # fp32 median / int8 median; None unless both were timed
    max_rel_error: float | None
    rel_rmse: float | None


def model_results(cases: Iterable[ProbeCase]) -> list[ModelResult]:
    """Every whole-model int8 case with a speedup or error metrics, by model type then case id."""
    listed = [case for case in cases if is_model_case(case)]
    speedups = int8_speedups(listed, versus="fp32")
    twins = {_pairing_key(case): case for case in listed if case.key.dtype == "fp32" and _median_s(case) is not None}
    results = []
    for case in sorted(listed, key=lambda one: (str(one.key.options.get("model")), one.key.case_id)):
        if case.key.dtype != "int8":
            continue
        error, rms = case.metrics.get("max_rel_error"), case.metrics.get("rel_rmse")
        speedup = speedups.get(case.key.case_id)
        if speedup is None and error is None:
            continue
        results.append(ModelResult(
            model=str(case.key.options.get("model")), int8=case, fp32=twins.get(_pairing_key(case)), speedup=speedup,
            max_rel_error=error.value if error is not None else None, rel_rmse=rms.value if rms is not None else None,
        ))  # fmt: skip
    return results


def model_line(result: ModelResult) -> str:
    """'ORT int8 cnn model (onnxruntime.static-qdq, 1x64x32x100): 2.25x fp32, max rel error 0.72%, relative RMSE 0.67%'."""
    speed = f"{result.speedup:.2f}x fp32" if result.speedup is not None else "not timed against fp32"
    parts = [speed]
    if result.max_rel_error is not None:
        parts.append(f"max rel error {result.max_rel_error:.2%}")
    if result.rel_rmse is not None:
        parts.append(f"relative RMSE {result.rel_rmse:.2%}")
    key = result.int8.key
    return f"ORT int8 {result.model} model ({key.implementation}, {key.shape_text}): {', '.join(parts)}"
