"""The layout probe: every layout computes the NCHW float64 answer, conversions happen where a mismatch says,
and the comparison reads ratios and mismatch costs off hand-built timings (never measured ones)."""

from __future__ import annotations

import pytest
import torch

from probes.harness.device import Device
from probes.harness.numerics import compare
from probes.layout.probe import LAYOUTS, OPS, conv2d, conv_bn_relu, layout_cases
from probes.layout.report import comparison_line, layout_comparisons
from probes.layout.sizing import COSTS, choose_shape
from probes.models import CaseKey, Measurement, ProbeCase
from probes.tolerance import tolerance_for

BUILDERS = {"conv": conv2d, "block": conv_bn_relu}


def test_cases_pair_the_three_layouts_of_each_op_and_dtype():
    cases = layout_cases(Device(), 1.0)
    assert len(cases) == 2 * len(OPS) * len(LAYOUTS)
    assert [case.layout for case in cases[:3]] == list(LAYOUTS)
    assert len({tuple(case.shape.items()) for case in cases}) == 1  # one shape: one variable at a time
    assert {(case.dtype, case.options["op"]) for case in cases} == {(d, o) for d in ("fp32", "bf16") for o in OPS}


@pytest.mark.parametrize("dtype", ["fp32", "bf16"])
@pytest.mark.parametrize("op", OPS)
def test_every_layout_matches_the_float64_nchw_reference(op, dtype):
    for case in (c for c in layout_cases(Device(), 1.0) if c.options["op"] == op and c.dtype == dtype):
        bench = BUILDERS[op](case, Device())
        output = bench.run()
        assert compare(output, bench.reference(), tolerance_for(case.dtype)).passed, case.layout
        # Where the output lands tells whether a conversion happened inside the call.
        channels_last = output.is_contiguous(memory_format=torch.channels_last) and not output.is_contiguous()
        assert channels_last == (case.layout == "nhwc" or (case.layout == "mismatch" and op == "conv")), case.layout


def test_larger_shares_and_faster_devices_get_larger_convolutions():
    flops = [choose_shape("cpu", share, 12).flops for share in (0.1, 5.0, 30.0, 1000.0)]
    assert flops == sorted(flops) and flops[0] < flops[-1]
    assert choose_shape("cpu", 0.0, 12) == COSTS["cpu"].shapes[0]
    assert choose_shape("cuda", 30.0, 12).flops > choose_shape("cpu", 30.0, 12).flops


def _timed(op: str, dtype: str, layout: str, median: float, noisy: bool = False) -> ProbeCase:
    spread = (0.5, 1.0, 1.5) if noisy else (1.0, 1.0, 1.0)
    key = CaseKey(
        probe="layout",
        implementation="torch.conv2d",
        dtype=dtype,
        layout=layout,
        device="cpu",
        shape={"batch": 2, "channels": 32, "height": 28, "width": 28},
        options={"op": op},
    )
    timing = Measurement.from_samples([median * factor for factor in spread], stop_reason="converged")
    return ProbeCase(key=key, status="ok", timing=timing)


def test_comparison_ratio_mismatch_cost_and_conversion_share():
    cases = [
        _timed("block", "bf16", "nchw", 1.3e-3),
        _timed("block", "bf16", "nhwc", 1.0e-3),
        _timed("block", "bf16", "mismatch", 1.18e-3),
        _timed("conv", "fp32", "nchw", 1e-3),
        _timed("conv", "fp32", "nhwc", 2e-3, noisy=True),
    ]
    block, conv = layout_comparisons(cases)
    assert block.nhwc_speedup == pytest.approx(1.3) and block.mismatch_cost == pytest.approx(0.18)
    assert block.conversion_share == pytest.approx(1 - 1 / 1.18) and len(block.case_ids) == 3
    assert comparison_line(block) == (
        "channels-last 1.30x faster than NCHW for conv block bf16 (2x32x28x28); "
        "mismatch costs 18% (conversions 15% of the mismatched call)"
    )
    assert conv.mismatch_cost is None
    assert comparison_line(conv) == "channels-last 2.00x SLOWER than NCHW for conv fp32 (2x32x28x28) [noisy timings]"
