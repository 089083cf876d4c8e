"""Issue 18's private-API risks: the attention kernel's reductions and torch.compile's compile time.

The Triton attention kernel reduces with the public tl.max / tl.sum (probes.kernels.jit_helper), no
longer with triton.language.standard's private combine functions; its interpreter numerics are
checked in tests/probes/test_triton_kernels.py. The dynamic probe's compile seconds come from
dynamo's compile-time record, or, where a torch lacks it, from dynamo's compile callbacks.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
import torch._dynamo

from probes.dynamic import compile_stats
from probes.dynamic.compile_stats import CompileCounter

KERNELS = Path(__file__).resolve().parents[2] / "probes" / "kernels"


def test_the_kernels_use_no_private_triton_names() -> None:
    for path in KERNELS.glob("*.py"):
        text = path.read_text()
        assert "triton.language.standard" not in text and "_elementwise_max" not in text, path.name
        assert "_sum_combine" not in text, path.name


def _compile_four_shapes() -> None:
    def scale(x: torch.Tensor) -> torch.Tensor:
        return x * 2

    compiled = torch.compile(scale, backend="eager", dynamic=False)
    with torch._dynamo.config.patch(recompile_limit=2):
        for length in (3, 4, 5, 6):
            compiled(torch.ones(length))


def test_compile_seconds_come_from_dynamos_record() -> None:
    torch._dynamo.reset()
    counter = CompileCounter()
    _compile_four_shapes()
    activity = counter.activity()
    assert activity.compiles == 2 and activity.compile_s > 0
    assert activity.compile_s_source == "dynamo compile-time record"
    torch._dynamo.reset()


@pytest.mark.parametrize("record", [None, []], ids=["no-record-module", "key-renamed"])
def test_compile_seconds_fall_back_to_dynamos_callbacks(monkeypatch: pytest.MonkeyPatch, record) -> None:
    monkeypatch.setattr(compile_stats, "_recorded_compile_times", lambda: record)
    torch._dynamo.reset()
    counter = CompileCounter()
    _compile_four_shapes()
    activity = counter.activity()
    assert activity.compiles == 2 and activity.compile_s > 0
    assert activity.compile_s_source == "dynamo compile callbacks"
    torch._dynamo.reset()


def test_without_record_or_callbacks_a_compiling_pass_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compile_stats, "_recorded_compile_times", lambda: None)
    monkeypatch.setattr(compile_stats._CallbackTimer, "start", staticmethod(lambda: None))
    torch._dynamo.reset()
    counter = CompileCounter()
    _compile_four_shapes()
    with pytest.raises(RuntimeError, match="compile_s cannot be read"):
        counter.activity()
    torch._dynamo.reset()


def test_the_callbacks_are_removed_after_the_pass() -> None:
    from torch._dynamo.callback import callback_handler

    before = (len(callback_handler.start_callbacks), len(callback_handler.end_callbacks))
    counter = CompileCounter()
    counter.activity()
    assert (len(callback_handler.start_callbacks), len(callback_handler.end_callbacks)) == before
    abandoned = CompileCounter()  # a pass that raised before activity(): collected, callbacks removed
    del abandoned
    assert (len(callback_handler.start_callbacks), len(callback_handler.end_callbacks)) == before
