"""What the INT8 probe's evidence says: each int8 path's speedup over float and its error."""

from __future__ import annotations

from collections.abc import Sequence

from probes.int8.analysis import int8_speedups, is_model_case, model_line, model_results
from probes.int8.readings import int8_readings
from probes.models import ProbeCase
from probes.reporting import ChartSpec, LabelledPoint, ProbeReport, ScatterPlot, Table


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
        rows.append((case.key.implementation, case.key.shape_text, f"{speedup:.2f}x", f"{error.value:.2%}" if error else "-"))
    for result in model_results(cases):
        speed_text = f"{result.speedup:.2f}x" if result.speedup is not None else "-"
        error_text = f"{result.max_rel_error:.2%}" if result.max_rel_error is not None else "-"
        if result.rel_rmse is not None:
            error_text += f" ({result.rel_rmse:.2%} rms)"
        rows.append((result.int8.key.implementation, f"{result.model} model {result.int8.key.shape_text}", speed_text,
                     error_text))  # fmt: skip
    for case in cases:
        if "rel_rmse" in case.metrics and not is_model_case(case):
            rows.append((case.key.implementation, case.key.shape_text, "-", f"{case.metrics['rel_rmse'].value:.2%} rms"))
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
    return [ChartSpec("int8-tradeoff", "INT8 speedup against error",
                      ScatterPlot(f"INT8 speedup vs error ({device})", "max relative error % (log)", "speedup vs float",
                                  tuple(points), reference_y=1.0),
                      "Above the dashed line INT8 is faster than the fastest float path; further left is more accurate.")]  # fmt: skip


REPORT = ProbeReport("int8", order=50, findings=int8_findings, table=int8_table, charts=int8_charts, readings=int8_readings)
