"""Quantization error as metrics, each row (token or output channel) measured against its own scale.

Why per row: an element-wise relative error explodes near zero, and one normalised by the whole
tensor lets a few outlier rows hide the rows they ruin (a per-tensor scale set by an outlier channel
flattens the small channels while the tensor-wide error still looks tiny). A row is the unit a model
cares about: a token's activations, an output channel's weights.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable

import torch

from probes.harness.device import Device
from probes.models import Metric
from probes.registry import Bench, Scenario, ScenarioResult

_RATIO = "ratio"  # a dimensionless fraction: 0.01 is 1%


def row_relative_errors(output: object, reference: object) -> dict[str, Metric]:
    """max_rel_error, rel_rmse and worst_row_rel_rmse of `output` against `reference`, rows on the last dim.

    max_rel_error: max |out - ref| / max |ref| of the element's row, over all elements.
    rel_rmse: root mean square over rows of ||out - ref|| / ||ref|| of the row.
    worst_row_rel_rmse: the largest ||out - ref|| / ||ref|| of a row (1.0: the row is lost).
    """
    out = torch.as_tensor(output).detach().to(device="cpu", dtype=torch.float64)
    ref = torch.as_tensor(reference).detach().to(device="cpu", dtype=torch.float64)
    out, ref = out.reshape(-1, out.shape[-1]), ref.reshape(-1, ref.shape[-1])
    error = out - ref
    tiny = torch.finfo(torch.float64).tiny
    row_max = ref.abs().amax(dim=-1).clamp_min(tiny)
    row_rel = error.norm(dim=-1) / ref.norm(dim=-1).clamp_min(tiny)
    return {
        "max_rel_error": Metric(value=float((error.abs().amax(dim=-1) / row_max).max()), unit=_RATIO),
        "rel_rmse": Metric(value=float(row_rel.square().mean().sqrt()), unit=_RATIO),
        "worst_row_rel_rmse": Metric(value=float(row_rel.max()), unit=_RATIO),
    }


def bench_with_errors(run: Callable[[], object], reference: Callable[[], object]) -> Bench:
    """A Bench that also records its output's error against the float64 reference as metrics.

    The reference is computed once (the harness's numeric check) and kept for the metrics, which
    are read after timing from one more call.
    """
    cached_reference = functools.cache(reference)
    return Bench(
        run=run,
        reference=cached_reference,
        extra_metrics=lambda: row_relative_errors(run(), cached_reference()),
    )


def error_study(run: Callable[[], torch.Tensor], reference: Callable[[], torch.Tensor], device: Device) -> Scenario:
    """One call of `run` and its error against the float64 reference as metrics: accuracy, not speed.

    A Scenario keeps its metrics whatever time is left; a timed Bench loses them when its share ends
    before a sample fits (a busy machine), and an untimed Bench never reads extra_metrics.
    """
    cached_reference = functools.cache(reference)

    def play() -> ScenarioResult:
        began = time.perf_counter()
        output = run()
        device.synchronize()
        seconds = time.perf_counter() - began  # one cold call: recorded, not a speed measurement
        metrics = row_relative_errors(output, cached_reference())
        return ScenarioResult(step_seconds=[seconds], metrics=metrics, output=output)

    return Scenario(play=play, reference=cached_reference)
