"""What the INT8 probe's evidence says: each int8 path's speedup over float and its error.

The harness measures each case alone, so a ratio across cases (an int8 GEMM against the fp32 and bf16
GEMMs of the same shape) is derived here, after the run, from the cases' median times. The readings:
speed against the float path (whole layers, the raw kernel, whole models) and quantization error.

Whole models: `int8_model_speedup_<model type>` (fp32 time / int8 time of a reference model in ONNX
Runtime on the CPU) and `int8_model_rel_error_<model type>` (the int8 output's max relative error against
the fp32 run), one of each per model type measured, so a rule (and a switch condition) reads only the
profile's own model type.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from probes.environment.models import Dtype
from probes.models import OptionValue, ProbeCase
from probes.reporting import (
    ChartSpec,
    LabelledPoint,
    ProbeReport,
    Reading,
    ReadingFamily,
    ReadingSpec,
    ScatterPlot,
    Table,
    make_reading,
    plural,
)
from probes.statistics import geometric_mean

# Speed over the float path: hardware-specific.
INT8_SPEEDUP = ReadingSpec("int8_speedup")  # the best whole-layer path (else the raw kernel)
INT8_KERNEL_SPEEDUP = ReadingSpec("int8_kernel_speedup")
INT8_MODEL_SPEEDUP = ReadingFamily("int8_model_speedup_")  # a whole reference model of one model type, in ORT
# Quantization error: the arithmetic sets it, so another family's measurement may stand in.
INT8_MAX_REL_ERROR = ReadingSpec("int8_max_rel_error", portable=True)
INT8_PER_TENSOR_REL_RMSE = ReadingSpec("int8_per_tensor_rel_rmse", portable=True)
INT8_PER_CHANNEL_REL_RMSE = ReadingSpec("int8_per_channel_rel_rmse", portable=True)
LAYERNORM_INPUT_INT8_REL_RMSE = ReadingSpec("layernorm_input_int8_rel_rmse", portable=True)
LAYERNORM_OUTPUT_INT8_REL_RMSE = ReadingSpec("layernorm_output_int8_rel_rmse", portable=True)
# A whole model's error, by model type. Not marked portable: the name-suffix rule this flag replaced never
# matched it (the model type ends the name); whether it should carry across hardware is still to be decided.
INT8_MODEL_REL_ERROR = ReadingFamily("int8_model_rel_error_")


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
        results.append(
            ModelResult(
                model=str(case.key.options.get("model")),
                int8=case,
                fp32=twins.get(_pairing_key(case)),
                speedup=speedup,
                max_rel_error=error.value if error is not None else None,
                rel_rmse=rms.value if rms is not None else None,
            )
        )
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


LAYER_PREFIX = "torchao."  # quantize, int8 matmul and dequantize: what a deployment actually runs
KERNEL = "torch._int_mm"
# qdq study implementation -> its reading (relative RMS error of the quantize/dequantize round trip)
QDQ_READINGS = {
    "qdq.per-tensor": INT8_PER_TENSOR_REL_RMSE,
    "qdq.per-channel": INT8_PER_CHANNEL_REL_RMSE,
    "qdq.layernorm-input": LAYERNORM_INPUT_INT8_REL_RMSE,
    "qdq.layernorm-output": LAYERNORM_OUTPUT_INT8_REL_RMSE,
}


def int8_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """int8_speedup (best whole-layer path, else the kernel), int8_kernel_speedup, int8_max_rel_error, qdq errors."""
    by_id = {case.key.case_id: case for case in cases}
    per_implementation: dict[str, list[tuple[ProbeCase, float]]] = defaultdict(list)
    for case_id, speedup in sorted(int8_speedups(cases).items()):
        per_implementation[by_id[case_id].key.implementation].append((by_id[case_id], speedup))
    means = {name: geometric_mean([s for _, s in pairs]) for name, pairs in per_implementation.items()}
    readings: list[Reading] = []
    kernel = _speedup_reading(INT8_KERNEL_SPEEDUP, KERNEL, means, per_implementation)
    layers = sorted((-mean, name) for name, mean in means.items() if name.startswith(LAYER_PREFIX))
    best_layer = layers[0][1] if layers else None
    headline = _speedup_reading(INT8_SPEEDUP, best_layer or KERNEL, means, per_implementation)
    if headline is not None and best_layer is not None and kernel is not None:
        figure = f"{headline.figure}; kernel {KERNEL} alone {kernel.value:.2f}x"
        headline = Reading(headline.name, headline.value, figure, headline.case_ids, headline.noisy_cases)
    readings += [reading for reading in (headline, kernel) if reading is not None]
    error = _layer_error(cases, best_layer)
    if error is not None:
        readings.append(error)
    readings += _qdq_readings(cases)
    readings += _model_readings(cases)
    return readings


def _speedup_reading(
    spec: ReadingSpec,
    implementation: str | None,
    means: dict[str, float],
    pairs: dict[str, list[tuple[ProbeCase, float]]],
) -> Reading | None:
    if implementation is None or implementation not in means:
        return None
    mean, used = means[implementation], pairs[implementation]
    figure = f"{implementation} {mean:.2f}x the float path (geometric mean over {plural(len(used), 'shape')})"
    return make_reading(spec, mean, figure, [case for case, _ in used])


def _layer_error(cases: Sequence[ProbeCase], implementation: str | None) -> Reading | None:
    """Worst max_rel_error of the chosen layer path; without a timed one, the most accurate layer path."""
    errors: dict[str, list[ProbeCase]] = defaultdict(list)
    for case in cases:
        if case.key.implementation.startswith(LAYER_PREFIX) and "max_rel_error" in case.metrics:
            errors[case.key.implementation].append(case)
    if not errors:
        return None
    worst = {name: max(c.metrics["max_rel_error"].value for c in listed) for name, listed in errors.items()}
    chosen = implementation if implementation in worst else min(sorted(worst), key=lambda name: worst[name])
    figure = f"{chosen} max relative error {worst[chosen]:.2%}"
    return make_reading(INT8_MAX_REL_ERROR, worst[chosen], figure, errors[chosen])


def _qdq_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    readings = []
    for implementation, spec in sorted(QDQ_READINGS.items()):
        listed = [case for case in cases if case.key.implementation == implementation and "rel_rmse" in case.metrics]
        if listed:
            worst = max(case.metrics["rel_rmse"].value for case in listed)
            readings.append(make_reading(spec, worst, f"{implementation} relative RMS error {worst:.2%}", listed))
    return readings


def _model_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """Per model type: int8_model_speedup_<type> (when fp32 and int8 were both timed) and int8_model_rel_error_<type>."""
    readings = []
    for result in model_results(cases):
        how = f"{result.int8.key.implementation}, batch {result.int8.key.shape.get('batch', '?')}"
        if result.speedup is not None and result.fp32 is not None:
            figure = f"ORT int8 {result.model} model {result.speedup:.2f}x fp32 ({how})"
            readings.append(
                make_reading(INT8_MODEL_SPEEDUP.named(result.model), result.speedup, figure, [result.fp32, result.int8])
            )
        if result.max_rel_error is not None:
            rms = f", relative RMSE {result.rel_rmse:.2%}" if result.rel_rmse is not None else ""
            figure = (
                f"ORT int8 {result.model} model max relative error {result.max_rel_error:.2%}{rms} against fp32 ({how})"
            )
            readings.append(
                make_reading(INT8_MODEL_REL_ERROR.named(result.model), result.max_rel_error, figure, [result.int8])
            )
    return readings


def int8_findings(cases: Sequence[ProbeCase]) -> list[str]:
    """int8 speedup over the fastest float baseline, with the error metrics of the quantized block;
    whole models in ONNX Runtime: int8 against fp32, and the int8 output's error against fp32's."""
    by_id = {case.key.case_id: case for case in cases}
    lines = []
    for case_id, speedup in int8_speedups(cases).items():
        case = by_id[case_id]
        if is_model_case(case):
            continue  # a line of its own below
        error = case.metrics.get("max_rel_error")
        detail = f", max rel error {error.value:.1%}" if error is not None else ""
        lines.append(f"{case.key.implementation} {case.key.shape_text}: {speedup:.2f}x vs float{detail}")
    lines += [model_line(result) for result in model_results(cases)]
    for case in cases:
        if case.key.implementation.startswith("qdq.") and "rel_rmse" in case.metrics:
            lines.append(f"{case.key.implementation}: relative RMS error {case.metrics['rel_rmse'].value:.2%}")
    return lines


def int8_table(cases: Sequence[ProbeCase]) -> Table:
    """Each int8 path's speedup over the fastest float baseline, and its error; whole models in ONNX Runtime
    against their fp32 run (error: the int8 output's against fp32's)."""
    by_id = {case.key.case_id: case for case in cases}
    rows = []
    for case_id, speedup in sorted(int8_speedups(cases).items()):
        case = by_id[case_id]
        if is_model_case(case):
            continue  # a row of its own below
        error = case.metrics.get("max_rel_error")
        rows.append(
            (case.key.implementation, case.key.shape_text, f"{speedup:.2f}x", f"{error.value:.2%}" if error else "-")
        )
    for result in model_results(cases):
        speed_text = f"{result.speedup:.2f}x" if result.speedup is not None else "-"
        error_text = f"{result.max_rel_error:.2%}" if result.max_rel_error is not None else "-"
        if result.rel_rmse is not None:
            error_text += f" ({result.rel_rmse:.2%} rms)"
        rows.append(
            (
                result.int8.key.implementation,
                f"{result.model} model {result.int8.key.shape_text}",
                speed_text,
                error_text,
            )
        )
    for case in cases:
        if "rel_rmse" in case.metrics and not is_model_case(case):
            rows.append(
                (case.key.implementation, case.key.shape_text, "-", f"{case.metrics['rel_rmse'].value:.2%} rms")
            )
    header = ("implementation", "shape", "speedup vs float", "error")
    return Table("INT8", header, rows)


def int8_charts(cases: Sequence[ProbeCase], device: str) -> list[ChartSpec]:
    """Each timed INT8 path: speedup over the fastest float baseline against its numeric error."""
    by_id = {case.key.case_id: case for case in cases}
    points = []
    for case_id, speedup in sorted(int8_speedups(cases).items()):
        case = by_id[case_id]
        error = case.metrics.get("max_rel_error")
        value = error.value if error is not None else (case.numeric.max_rel if case.numeric else None)
        if value is not None and value > 0:
            points.append(LabelledPoint(f"{case.key.implementation} {case.key.shape_text}", value * 100, speedup))
    if not points:
        return []
    return [
        ChartSpec(
            "int8-tradeoff",
            "INT8 speedup against error",
            ScatterPlot(
                f"INT8 speedup vs error ({device})",
                "max relative error % (log)",
                "speedup vs float",
                tuple(points),
                reference_y=1.0,
            ),
            "Above the dashed line INT8 is faster than the fastest float path; further left is more accurate.",
        )
    ]


REPORT = ProbeReport(
    "int8",
    order=50,
    findings=int8_findings,
    table=int8_table,
    charts=int8_charts,
    readings=int8_readings,
    declares=(
        INT8_SPEEDUP,
        INT8_KERNEL_SPEEDUP,
        INT8_MAX_REL_ERROR,
        *QDQ_READINGS.values(),
        INT8_MODEL_SPEEDUP,
        INT8_MODEL_REL_ERROR,
    ),
)
