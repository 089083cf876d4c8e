"""Play a request stream once through one implementation, timing each request, and summarize the pass."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence

import torch

from probes.dynamic.sizing import RequestShape
from probes.harness.device import Device
from probes.models import Metric
from probes.registry import ScenarioResult
from probes.statistics import quantile

RunRequest = Callable[[torch.Tensor], torch.Tensor]


def request_input(shape: RequestShape, width: int, index: int) -> torch.Tensor:
    """Request `index`'s (batch, length, width) fp32 input on the CPU, seeded by its index alone."""
    generator = torch.Generator().manual_seed(1000 + index)
    return torch.randn(shape.batch, shape.length, width, generator=generator)


@functools.lru_cache(maxsize=1)
def _inputs_on_cpu(shapes: tuple[RequestShape, ...], width: int) -> tuple[torch.Tensor, ...]:
    # Drawn once per process: a large accelerator stream holds ~10^8 numbers, seconds to draw.
    return tuple(request_input(shape, width, index) for index, shape in enumerate(shapes))


def request_inputs(shapes: Sequence[RequestShape], width: int, device: Device) -> list[torch.Tensor]:
    """Every request's input on the device, identical for every implementation (never written to)."""
    return [x.to(device.torch_device) for x in _inputs_on_cpu(tuple(shapes), width)]


def play_requests(run: RunRequest, inputs: Sequence[torch.Tensor], device: Device) -> tuple[list[float], torch.Tensor]:
    """Seconds per request (device synchronized around each) and the last request's output."""
    step_seconds: list[float] = []
    output = torch.empty(0)
    with torch.no_grad():
        for x in inputs:
            device.synchronize()
            start = time.perf_counter()
            output = run(x)
            device.synchronize()
            step_seconds.append(time.perf_counter() - start)
    return step_seconds, output


def steady_seconds(step_seconds: Sequence[float], executed: Sequence[RequestShape]) -> list[float]:
    """Times of requests whose executed shape had run before: no compile or capture in them."""
    seen: set[RequestShape] = set()
    steady: list[float] = []
    for seconds, shape in zip(step_seconds, executed):
        if shape in seen:
            steady.append(seconds)
        seen.add(shape)
    return steady


def latency_metrics(step_seconds: Sequence[float], executed: Sequence[RequestShape]) -> dict[str, Metric]:
    """Total, p50/p90/p99 of every request, and the median of the requests that met no new shape."""
    ordered = sorted(step_seconds)
    metrics = {
        "total_s": Metric(value=sum(step_seconds), unit="s"),
        "latency_p50_s": Metric(value=quantile(ordered, 0.5), unit="s"),
        "latency_p90_s": Metric(value=quantile(ordered, 0.9), unit="s"),
        "latency_p99_s": Metric(value=quantile(ordered, 0.99), unit="s"),
    }
    steady = sorted(steady_seconds(step_seconds, executed))
    if steady:
        metrics["steady_latency_p50_s"] = Metric(value=quantile(steady, 0.5), unit="s")
    return metrics


def pass_result(
    step_seconds: list[float],
    output: torch.Tensor,
    executed: Sequence[RequestShape],
    *,
    compiles: int,
    compile_s: float,
    padding_waste_pct: float = 0.0,
    limit_hit: bool = False,
    cache_hits: int = 0,
    cache_misses: int = 0,
) -> ScenarioResult:
    """The ScenarioResult of one pass: latencies, compile figures, padding waste and shapes executed.

    total_s: the whole stream, compiles included. compiles: frames dynamo compiled (or CUDA graphs
    captured); recompiles: those beyond the first. recompile_limit_hit: 1 when dynamo gave up and
    ran the rest eagerly. fx_graph_cache_hits/misses: graphs inductor found in, or added to, its
    on-disk cache. padding_waste_pct: padded tokens / real tokens. distinct_shapes: shapes the
    model ran (buckets when bucketed). steady_latency_p50_s: requests whose shape had run before.
    """
    requests = len(step_seconds)
    recompiles = max(0, compiles - 1)
    metrics = latency_metrics(step_seconds, executed)
    metrics.update(
        {
            "compile_s": Metric(value=compile_s, unit="s"),
            "compiles": Metric(value=compiles, unit="count"),
            "recompiles": Metric(value=recompiles, unit="count"),
            "recompiles_per_100_requests": Metric(
                value=100.0 * recompiles / requests if requests else 0.0, unit="per 100 requests"
            ),
            "recompile_limit_hit": Metric(value=float(limit_hit), unit="bool"),
            "fx_graph_cache_hits": Metric(value=cache_hits, unit="count"),
            "fx_graph_cache_misses": Metric(value=cache_misses, unit="count"),
            "padding_waste_pct": Metric(value=padding_waste_pct, unit="%"),
            "distinct_shapes": Metric(value=len(set(executed)), unit="count"),
            "requests": Metric(value=requests, unit="count"),
        }
    )
    return ScenarioResult(step_seconds=step_seconds, metrics=metrics, output=output)
