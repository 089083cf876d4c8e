"""The fusion probe: eager launches one kernel per op, torch.compile fuses the chain into fewer; both compute the
float64 answer. Launch counts, not timings, are checked; the findings pair hand-built cases."""

from __future__ import annotations

import pytest

import probes.fusion.probe as fusion_probe
from probes.fusion.report import fusion_lines, fusion_pairs
from probes.harness.device import Device
from probes.harness.numerics import compare
from probes.models import CaseKey, Measurement, Metric, ProbeCase
from probes.registry import Unsupported
from probes.tolerance import tolerance_for


@pytest.fixture(scope="module")
def case():
    return fusion_probe.fusion_cases(Device(), 1.0)[0]  # too short to compile: the refusal is set


def test_a_short_share_refuses_to_compile_with_the_reason(case):
    with pytest.raises(Unsupported, match="share too small for torch.compile: 1.0 s"):
        fusion_probe.compiled(case, Device())


def test_compiled_chain_launches_fewer_kernels_than_eager_and_agrees(case, monkeypatch):
    monkeypatch.setattr(fusion_probe, "_compile_refusal", None)
    launches = {}
    for name, build in (("eager", fusion_probe.eager), ("compiled", fusion_probe.compiled)):
        bench = build(case, Device())
        assert compare(bench.run(), bench.reference(), tolerance_for(case.dtype)).passed, name
        launches[name] = bench.extra_metrics()["launches_per_call"].value
    assert launches["eager"] == 5  # mul, add, gelu, layer_norm, add
    assert 1 <= launches["compiled"] <= launches["eager"] / 3  # the method's inference target


def _case(implementation: str, median: float, launches: float, **metrics: float) -> ProbeCase:
    key = CaseKey(
        probe="fusion",
        implementation=implementation,
        dtype="fp32",
        shape={"tokens": 128, "width": 512},
        device="cpu",
        options={"chain": "c"},
    )
    timing = Measurement.from_samples([median] * 3, stop_reason="converged")
    values = {"launches_per_call": launches, **metrics}
    return ProbeCase(
        key=key, status="ok", timing=timing, metrics={k: Metric(value=v, unit="") for k, v in values.items()}
    )


def test_findings_pair_compiled_with_eager():
    cases = [_case("eager", 2e-4, 5), _case("torch.compile", 1e-4, 1, compile_s=0.5)]
    (pair,) = fusion_pairs(cases)
    assert pair.launch_ratio == pytest.approx(0.2) and pair.speedup == pytest.approx(2.0)
    assert fusion_lines(cases) == [
        "eager fp32 128x512: 5 launches per call",
        "torch.compile fp32: 1 launch per call, 0.20x eager's (meets the 1/3 target), 2.00x eager's speed, compile 0.50 s",
    ]
    assert "misses the 1/3 target" in fusion_lines([cases[0], _case("torch.compile", 1e-4, 2)])[1]
