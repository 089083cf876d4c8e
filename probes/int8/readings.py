"""INT8 readings: speed against the float path (whole layers, the raw kernel, whole models) and quantization error.

Whole models: `int8_model_speedup_<model type>` (fp32 time / int8 time of a reference model in ONNX
Runtime on the CPU) and `int8_model_rel_error_<model type>` (the int8 output's max relative error against
the fp32 run), one of each per model type measured, so a rule (and a switch condition) reads only the
profile's own model type.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from probes.int8.analysis import int8_speedups, model_results
from probes.models import ProbeCase
from probes.reporting import Reading, make_reading, plural
from probes.statistics import geometric_mean

LAYER_PREFIX = "torchao."  # quantize, int8 matmul and dequantize: what a deployment actually runs
KERNEL = "torch._int_mm"
# qdq study implementation -> reading name (relative RMS error of the quantize/dequantize round trip)
QDQ_READINGS = {
    "qdq.per-tensor": "int8_per_tensor_rel_rmse",
    "qdq.per-channel": "int8_per_channel_rel_rmse",
    "qdq.layernorm-input": "layernorm_input_int8_rel_rmse",
    "qdq.layernorm-output": "layernorm_output_int8_rel_rmse",
}


def int8_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """int8_speedup (best whole-layer path, else the kernel), int8_kernel_speedup, int8_max_rel_error, qdq errors."""
    by_id = {case.key.case_id: case for case in cases}
    per_implementation: dict[str, list[tuple[ProbeCase, float]]] = defaultdict(list)
    for case_id, speedup in sorted(int8_speedups(cases).items()):
        per_implementation[by_id[case_id].key.implementation].append((by_id[case_id], speedup))
    means = {name: geometric_mean([s for _, s in pairs]) for name, pairs in per_implementation.items()}
    readings: list[Reading] = []
    kernel = _speedup_reading("int8_kernel_speedup", KERNEL, means, per_implementation)
    layers = sorted((-mean, name) for name, mean in means.items() if name.startswith(LAYER_PREFIX))
    best_layer = layers[0][1] if layers else None
    headline = _speedup_reading("int8_speedup", best_layer or KERNEL, means, per_implementation)
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
    name: str, implementation: str | None, means: dict[str, float], pairs: dict[str, list[tuple[ProbeCase, float]]]
) -> Reading | None:
    if implementation is None or implementation not in means:
        return None
    mean, used = means[implementation], pairs[implementation]
    figure = f"{implementation} {mean:.2f}x the float path (geometric mean over {plural(len(used), 'shape')})"
    return make_reading(name, mean, figure, [case for case, _ in used])


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
    return make_reading("int8_max_rel_error", worst[chosen], figure, errors[chosen])


def _qdq_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    readings = []
    for implementation, name in sorted(QDQ_READINGS.items()):
        listed = [case for case in cases if case.key.implementation == implementation and "rel_rmse" in case.metrics]
        if listed:
            worst = max(case.metrics["rel_rmse"].value for case in listed)
            readings.append(make_reading(name, worst, f"{implementation} relative RMS error {worst:.2%}", listed))
    return readings


def _model_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """Per model type: int8_model_speedup_<type> (when fp32 and int8 were both timed) and int8_model_rel_error_<type>."""
    readings = []
    for result in model_results(cases):
        how = f"{result.int8.key.implementation}, batch {result.int8.key.shape.get('batch', '?')}"
        if result.speedup is not None and result.fp32 is not None:
            figure = f"ORT int8 {result.model} model {result.speedup:.2f}x fp32 ({how})"
            name = f"int8_model_speedup_{result.model}"
            readings.append(make_reading(name, result.speedup, figure, [result.fp32, result.int8]))
        if result.max_rel_error is not None:
            rms = f", relative RMSE {result.rel_rmse:.2%}" if result.rel_rmse is not None else ""
            figure = f"ORT int8 {result.model} model max relative error {result.max_rel_error:.2%}{rms} against fp32 ({how})"
            name = f"int8_model_rel_error_{result.model}"
            readings.append(make_reading(name, result.max_rel_error, figure, [result.int8]))
    return readings
