"""The dynamic-shapes probe: one short CPU run, its stream and buckets, its sizing and its pass metrics.

Timings on this shared machine are noise: nothing here checks speed, only structure, numerics,
recompile counts, padding waste computed by hand, and what the sizing decides for a given share.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import torch
import torch._dynamo

from probes.dynamic import probe as dynamic_probe
from probes.dynamic.bucketing import PaddedRunner, pad_to_bucket
from probes.dynamic.compile_stats import CompileCounter
from probes.dynamic.inputs import make_block
from probes.dynamic.playback import latency_metrics, pass_result, steady_seconds
from probes.dynamic.sizing import (
    MIN_BUCKET_LENGTH,
    SCALES,
    RequestShape,
    StreamSpec,
    bucket_of,
    choose_stream,
    estimated_costs,
    expected_graphs,
    fits,
    minimum_share_s,
    next_power_of_two,
    padding_waste_pct,
    request_shapes,
)
from probes.harness.device import Device
from probes.harness.worker import plan_cases
from probes.models import Evidence, ProbeCase
from probes.registry import CaseSpec, ScenarioResult, Unsupported, load_probe
from probes.runner import run_probes

IMPLEMENTATIONS = {"eager", "compile.dynamic", "compile.bucketed", "cudagraph.bucketed", "compile.static"}
COMPILED = ("compile.dynamic", "compile.bucketed", "compile.static")
PASS_METRICS = {
    "total_s": "s",
    "latency_p50_s": "s",
    "latency_p90_s": "s",
    "latency_p99_s": "s",
    "compile_s": "s",
    "compiles": "count",
    "recompiles": "count",
    "recompiles_per_100_requests": "per 100 requests",
    "recompile_limit_hit": "bool",
    "fx_graph_cache_hits": "count",
    "fx_graph_cache_misses": "count",
    "padding_waste_pct": "%",
    "distinct_shapes": "count",
    "requests": "count",
}


@pytest.fixture(scope="module")
def evidence() -> Evidence:
    # The largest CPU stream needs ~12 s with warm inductor caches (sizing.py); a run ends when its
    # cases do, so the headroom costs nothing then and absorbs a busy machine's slower compiles. A cold
    # cache (a fresh CI machine) took the whole run to 25 s here and overran a 30 s budget's share; with
    # 90 s the cold run passed in 39 s and a warm one in 15 s (2026-12-03, 2 cores).
    return run_probes(["dynamic"], budget_s=90, device="cpu")


def _case(evidence: Evidence, implementation: str) -> ProbeCase:
    return next(case for case in evidence.cases if case.key.implementation == implementation)


def _metric(case: ProbeCase, name: str) -> float:
    return case.metrics[name].value


def _passes(evidence: Evidence) -> list[ProbeCase]:
    """The cases that played their stream (eager always; compiled ones unless out of time)."""
    return [case for case in evidence.cases if case.status == "ok"]


def _shapes(case: ProbeCase) -> list[RequestShape]:
    """The request shapes the case's identity stands for."""
    return dynamic_probe.shapes_of(CaseSpec(dtype=case.key.dtype, shape=case.key.shape, options=case.key.options))


# --- the probe run -----------------------------------------------------------------------------


def test_every_implementation_is_planned_and_runs_or_says_why(evidence: Evidence) -> None:
    run = evidence.probe_runs[0]
    assert run.probe == "dynamic" and run.status == "ok", run.reason
    assert {case.key.implementation for case in evidence.cases} == IMPLEMENTATIONS
    assert {registered.name for registered in load_probe("dynamic").implementations} == IMPLEMENTATIONS
    cudagraph = _case(evidence, "cudagraph.bucketed")
    assert cudagraph.status == "skipped" and cudagraph.reason == "not enabled on cpu"
    assert _case(evidence, "eager").status == "ok"
    # Inductor's on-disk caches are warm after a machine's first run; a first run (a fresh CI
    # container) compiles every kernel and may run out of time, never fail for another reason.
    for name in COMPILED:
        case = _case(evidence, name)
        assert case.status == "ok" or "time share" in (case.reason or ""), (name, case.reason)


def test_every_pass_checks_its_numerics_and_times_every_request(evidence: Evidence) -> None:
    requests = int(_case(evidence, "eager").key.options["requests"])
    for case in _passes(evidence):
        assert case.numeric is not None and case.numeric.passed, (case.key.implementation, case.numeric)
        assert case.timing is not None and case.timing.stop_reason == "single pass"
        assert len(case.timing.samples) == requests and all(seconds > 0 for seconds in case.timing.samples)
        assert {name: case.metrics[name].unit for name in PASS_METRICS} == PASS_METRICS
        assert _metric(case, "requests") == requests
        assert _metric(case, "total_s") == pytest.approx(sum(case.timing.samples))


def test_the_run_counts_compiles_and_padding(evidence: Evidence) -> None:
    passes = {case.key.implementation: case for case in _passes(evidence)}
    shapes = _shapes(passes["eager"])
    assert _metric(passes["eager"], "compiles") == _metric(passes["eager"], "compile_s") == 0
    assert _metric(passes["eager"], "padding_waste_pct") == 0
    if "compile.static" in passes and "compile.dynamic" in passes:
        static, dynamic = passes["compile.static"], passes["compile.dynamic"]
        assert _metric(static, "compiles") == len(set(shapes)) and _metric(dynamic, "compiles") == 2
        assert _metric(static, "recompiles") > _metric(dynamic, "recompiles")
        assert _metric(static, "compile_s") > 0 and _metric(static, "recompile_limit_hit") == 0
    if "compile.bucketed" in passes:
        assert _metric(passes["compile.bucketed"], "padding_waste_pct") == pytest.approx(padding_waste_pct(shapes))


# --- the passes in this process, compiled by dynamo alone (no inductor: fast, cache-independent) --


@dataclass(frozen=True)
class TracedPasses:
    """Each implementation's pass over one stream, and the stream's request shapes."""

    shapes: list[RequestShape]
    results: dict[str, ScenarioResult]


@pytest.fixture(scope="module")
def traced() -> TracedPasses:
    spec = StreamSpec(requests=16, lengths=3, max_len=64, max_batch=2)
    case = CaseSpec(
        dtype="fp32",
        shape={"width": 32, "heads": 2, "max_batch": spec.max_batch, "max_len": spec.max_len},
        options={"requests": spec.requests, "lengths": spec.lengths, "seed": spec.seed},
    )
    builders = {
        "eager": dynamic_probe.eager,
        "compile.dynamic": dynamic_probe.compile_dynamic,
        "compile.bucketed": dynamic_probe.compile_bucketed,
        "compile.static": dynamic_probe.compile_static,
    }
    results: dict[str, ScenarioResult] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dynamic_probe, "COMPILE_BACKEND", "eager")
        patch.setattr(dynamic_probe, "_compile_refusal", None)
        for name, build in builders.items():
            scenario = build(case, Device())
            results[name] = scenario.play()
            assert scenario.reference is not None
            torch.testing.assert_close(results[name].output.double(), scenario.reference(), atol=1e-4, rtol=1e-4)
    torch._dynamo.reset()
    return TracedPasses(shapes=dynamic_probe.shapes_of(case), results=results)


def test_static_compile_recompiles_more_than_dynamic(traced: TracedPasses) -> None:
    shapes = traced.shapes
    static, dynamic = traced.results["compile.static"].metrics, traced.results["compile.dynamic"].metrics
    assert len(set(shapes)) >= 3
    # One graph per shape (below the limit of 8); dynamic needs one for batch 1 and one for batch > 1.
    assert static["compiles"].value == static["distinct_shapes"].value == len(set(shapes))
    assert dynamic["compiles"].value == 2
    assert static["recompiles"].value > dynamic["recompiles"].value
    assert static["recompile_limit_hit"].value == 0 and static["compile_s"].value > 0


def test_bucketing_pads_and_eager_does_not(traced: TracedPasses) -> None:
    shapes = traced.shapes
    bucketed, eager = traced.results["compile.bucketed"].metrics, traced.results["eager"].metrics
    assert padding_waste_pct(shapes) > 0
    assert bucketed["padding_waste_pct"].value == pytest.approx(padding_waste_pct(shapes))
    assert bucketed["compiles"].value == bucketed["distinct_shapes"].value == len({bucket_of(s) for s in shapes})
    assert eager["padding_waste_pct"].value == 0 and eager["distinct_shapes"].value == len(set(shapes))


def test_every_request_produced_a_step_time(traced: TracedPasses) -> None:
    for name in ("eager", *COMPILED):
        result = traced.results[name]
        assert len(result.step_seconds) == 16 and all(seconds > 0 for seconds in result.step_seconds), name
        assert result.metrics["requests"].value == 16


# --- planning ------------------------------------------------------------------------------------


def _planned_ids(share_s: float) -> list[str]:
    planned = plan_cases(load_probe("dynamic"), Device(), share_s)
    return [entry.case.key("dynamic", entry.implementation.name, "cpu").case_id for entry in planned]


def test_case_ids_are_stable_across_plannings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dynamic_probe, "_compile_refusal", None)  # planning sets it; restored after the test
    for share_s in (1.0, 12.0, 30.0):
        first = _planned_ids(share_s)
        assert first == _planned_ids(share_s) and len(first) == len(IMPLEMENTATIONS)
    assert first[0] == (
        "dynamic/eager/fp32/width=32,heads=2,max_batch=2,max_len=64/batch,length,width/cpu/lengths=3,requests=48,seed=0"
    )


def test_a_share_too_small_to_compile_refuses_the_compile_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dynamic_probe, "_compile_refusal", None)  # restored after the test
    (case,) = dynamic_probe.dynamic_cases(Device(), 2.0)
    assert case.options == {"requests": 12, "lengths": 2, "seed": 0}
    for builder in (dynamic_probe.compile_static, dynamic_probe.compile_dynamic, dynamic_probe.compile_bucketed):
        refusal = r"share too small for torch.compile: 2.0 s, the smallest stream needs ~\d+ s"
        with pytest.raises(Unsupported, match=refusal):
            builder(case, Device())
    played = dynamic_probe.eager(case, Device())  # eager never compiles: it still runs
    result = played.play()
    assert len(result.step_seconds) == 12
    assert torch.allclose(result.output.double(), played.reference(), atol=1e-4, rtol=1e-4)


# --- the stream and its buckets ------------------------------------------------------------------


def test_power_of_two_buckets() -> None:
    assert [next_power_of_two(n) for n in (1, 2, 3, 4, 5, 33, 64, 65)] == [1, 2, 4, 4, 8, 64, 64, 128]
    with pytest.raises(ValueError):
        next_power_of_two(0)
    assert bucket_of(RequestShape(3, 33)) == RequestShape(4, 64)
    assert bucket_of(RequestShape(1, 5)) == RequestShape(1, MIN_BUCKET_LENGTH)


def test_padding_waste_by_hand() -> None:
    # (1, 33) -> (1, 64): 31 padded; (3, 16) -> (4, 16): 16 padded; (2, 64) exact. Real: 33 + 48 + 128 = 209.
    shapes = [RequestShape(1, 33), RequestShape(3, 16), RequestShape(2, 64)]
    assert padding_waste_pct(shapes) == pytest.approx(100 * 47 / 209)
    assert padding_waste_pct([RequestShape(2, 32)]) == 0.0


def test_the_stream_is_seeded_and_avoids_the_width() -> None:
    spec = StreamSpec(requests=40, lengths=4, max_len=64, max_batch=3)
    shapes = request_shapes(spec, frozenset({32}))
    assert shapes == request_shapes(spec, frozenset({32}))
    assert len(shapes) == 40 and len({shape.length for shape in shapes}) <= 4
    assert all(8 <= shape.length <= 64 and shape.length != 32 and 1 <= shape.batch <= 3 for shape in shapes)
    assert request_shapes(StreamSpec(requests=40, lengths=4, max_len=64, max_batch=3, seed=1)) != shapes


def test_smaller_cpu_streams_draw_a_subset_of_the_larger_ones_shapes() -> None:
    # So the inductor caches one budget's run fills serve every other budget.
    scale = SCALES["cpu"]
    shape_sets = [set(request_shapes(spec, frozenset({scale.width}))) for spec in scale.streams]
    for smaller, larger in zip(shape_sets, shape_sets[1:]):
        assert smaller <= larger


def test_padding_changes_no_real_output() -> None:
    # Causal attention and per-token norms/MLP: rows appended after the real ones never reach them.
    block = make_block(32, 2, torch.device("cpu"))
    x = torch.randn(3, 21, 32, generator=torch.Generator().manual_seed(0))
    assert pad_to_bucket(x).shape == (4, 32, 32)
    with torch.no_grad():
        torch.testing.assert_close(PaddedRunner(block)(x), block(x), atol=1e-5, rtol=1e-5)


# --- sizing --------------------------------------------------------------------------------------


def test_expected_graphs_per_implementation() -> None:
    shapes = [RequestShape(1, 40), RequestShape(2, 40), RequestShape(2, 50), RequestShape(1, 40)]
    assert expected_graphs("eager", shapes) == 0
    assert expected_graphs("compile.static", shapes) == 3
    assert expected_graphs("compile.dynamic", shapes) == 2  # batch 1 and batch > 1
    assert expected_graphs("compile.bucketed", shapes) == 2  # (1, 64) and (2, 64)
    many = [RequestShape(1, length) for length in range(20, 40)]
    assert expected_graphs("compile.static", many) == 8  # dynamo's recompile limit


def test_fits_gives_each_pass_an_equal_part_of_what_is_left() -> None:
    # 90% of 10 s = 9 s planned; first part 9/3 = 3 s (allowed 1.25 * 3 + 2 = 5.75 s).
    assert fits([1.0, 2.0, 3.0], 10.0)
    assert not fits([6.0, 0.5, 0.5], 10.0)  # the first pass alone overruns its part
    assert not fits([3.0, 3.0, 3.5], 10.0)  # each within reach, the total is not
    needed = minimum_share_s([1.0, 2.0, 3.0])
    assert fits([1.0, 2.0, 3.0], needed) and not fits([1.0, 2.0, 3.0], needed - 0.2)


def test_choose_stream_grows_with_the_share_and_refuses_compiles_when_tiny() -> None:
    runnable = dynamic_probe.runnable_implementations("cpu")
    assert runnable == ["eager", "compile.dynamic", "compile.bucketed", "compile.static"]
    streams = SCALES["cpu"].streams
    assert choose_stream("cpu", 1.0, runnable) == (streams[0], False)
    assert choose_stream("cpu", 1000.0, runnable) == (streams[-1], True)
    smallest_share = minimum_share_s(estimated_costs(SCALES["cpu"], streams[0], runnable))
    assert choose_stream("cpu", smallest_share, runnable) == (streams[0], True)
    assert "cudagraph.bucketed" in dynamic_probe.runnable_implementations("cuda")


# --- pass metrics --------------------------------------------------------------------------------


def test_steady_requests_are_those_whose_shape_ran_before() -> None:
    a, b = RequestShape(1, 10), RequestShape(2, 10)
    assert steady_seconds([5.0, 0.1, 3.0, 0.2, 0.3], [a, a, b, b, a]) == [0.1, 0.2, 0.3]
    metrics = latency_metrics([5.0, 0.1, 3.0, 0.2, 0.3], [a, a, b, b, a])
    assert metrics["total_s"].value == pytest.approx(8.6)
    assert metrics["latency_p50_s"].value == 0.3 and metrics["steady_latency_p50_s"].value == 0.2
    assert "steady_latency_p50_s" not in latency_metrics([1.0, 2.0], [a, b])


def test_pass_result_counts_recompiles_per_hundred_requests() -> None:
    shapes = [RequestShape(1, 10)] * 8
    result = pass_result([0.01] * 8, torch.zeros(1), shapes, compiles=3, compile_s=1.5, padding_waste_pct=12.5)
    assert result.metrics["recompiles"].value == 2
    assert result.metrics["recompiles_per_100_requests"].value == 25.0
    assert result.metrics["padding_waste_pct"].value == 12.5 and result.metrics["distinct_shapes"].value == 1
    assert {name: metric.unit for name, metric in result.metrics.items() if name in PASS_METRICS} == PASS_METRICS


def test_compile_counter_counts_frames_and_the_recompile_limit() -> None:
    # The eager backend traces without inductor: the counting is the same, the cost is not.
    def scale(x: torch.Tensor) -> torch.Tensor:
        return x * 2

    torch._dynamo.reset()
    counter = CompileCounter()
    compiled = torch.compile(scale, backend="eager", dynamic=False)
    with torch._dynamo.config.patch(recompile_limit=2):
        for length in (3, 4, 5, 6):
            compiled(torch.ones(length))
    activity = counter.activity()
    assert activity.compiles == 2 and activity.recompiles == 1 and activity.limit_hit
    assert activity.compile_s > 0 and activity.cache_hits == activity.cache_misses == 0
    torch._dynamo.reset()
