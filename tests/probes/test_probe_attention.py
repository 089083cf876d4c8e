"""The attention probe on CPU: planning, sizing, growth fitting, its builders, and one short end-to-end run.

Timings on this shared machine are noise, so nothing here checks speed: the end-to-end run checks
statuses, reasons, numerics and metric units; the builders are called directly to check the
scratch-memory metric, which on CPU is counted per allocation and is therefore exact.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
import torch
from torch.nn.attention import SDPBackend

from probes.attention.inputs import CHECKED_ROWS, checked_rows
from probes.attention.probe import (
    attention_cases,
    first_call,
    naive,
    sdpa_efficient,
    sdpa_flash,
    sdpa_math,
    triton_fused,
)
from probes.attention.report import fit_growth
from probes.attention.scratch_memory import require_free_memory
from probes.attention.sizing import (
    GEOMETRIES,
    MIN_LENGTHS,
    attention_flops,
    interpreter_affordable,
    planned_cost_s,
    sequence_lengths,
)
from probes.harness.device import Device
from probes.harness.numerics import compare
from probes.harness.worker import plan_cases
from probes.models import Evidence, ProbeCase
from probes.registry import CaseSpec, Unsupported, load_probe
from probes.runner import run_probes
from probes.tolerance import tolerance_for

IMPLEMENTATIONS = ["naive", "sdpa.math", "sdpa.flash", "sdpa.efficient", "sdpa.cudnn", "triton"]
TIMED_ON_CPU = {"naive", "sdpa.math", "sdpa.flash"}
NO_KERNEL_ON_CPU = {"sdpa.efficient", "sdpa.cudnn"}


def _device_of(kind: str) -> Any:
    # attention_cases and the enabled= predicates look at nothing but the kind.
    return SimpleNamespace(kind=kind, name=f"{kind}:0")


def _cpu_case(seq: int, dtype: str = "fp32", causal: bool = False) -> CaseSpec:
    return next(
        case
        for case in attention_cases(Device(), share_s=1e6)
        if case.shape["seq"] == seq and case.dtype == dtype and case.options["causal"] == causal
    )


# ---------------------------------------------------------------- growth


@pytest.mark.parametrize(
    ("points", "slope"),
    [
        ([(512, 1.0), (1024, 4.0), (2048, 16.0)], 2.0),  # x4 per doubling: quadratic
        ([(100, 5.0), (200, 10.0), (400, 20.0)], 1.0),  # linear
        ([(256, 7.0), (4096, 7.0)], 0.0),  # flat
        # logs base 2: x = 0, 1, 2 and y = 0, 2, 3; slope = sum dx*dy / sum dx^2 = (5/3 + 4/3) / 2 = 1.5
        ([(1, 1.0), (2, 4.0), (4, 8.0)], 1.5),
    ],
)
def test_fit_growth_matches_hand_computed_slopes(points: list[tuple[int, float]], slope: float) -> None:
    assert fit_growth(points) == pytest.approx(slope, abs=1e-12)


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ([(512, 1.0)], "at least two points"),
        ([(512, 1.0), (512, 2.0)], "two distinct lengths"),
        ([(512, 1.0), (1024, 0.0)], "positive"),
        ([(0, 1.0), (1024, 2.0)], "positive"),
        ([(512, 1.0), (1024, math.inf)], "finite"),
    ],
)
def test_fit_growth_refuses_points_without_a_slope(points: list[tuple[int, float]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fit_growth(points)


# ---------------------------------------------------------------- sizing


def test_attention_flops_and_interpreter_limit_by_hand() -> None:
    assert attention_flops(1, 2, 512, 64, causal=False) == 4 * 2 * 64 * 512 * 512  # 134,217,728
    assert attention_flops(1, 2, 512, 64, causal=True) == 4 * 2 * 64 * 512 * 513 / 2  # 67,239,936
    # 64-row tiles: 256 -> 4 x 4 tile pairs per head, 2 heads = 32, the limit; 512 -> 128.
    assert interpreter_affordable(1, 2, 256) and interpreter_affordable(1, 1, 128)
    assert not interpreter_affordable(1, 2, 512) and not interpreter_affordable(2, 2, 256)


def test_planned_cost_of_the_smallest_cpu_sweep_by_hand() -> None:
    # 3 lengths x 2 dtypes x 2 causal x 3 timed implementations = 36 pairs, each priced at 512:
    # call = 3e-4 + 134,217,728 / 1e10 = 0.0137217728 s; pair = 0.25 + 14 * call = 0.4421048192 s.
    # Interpreted Triton pairs: fp32 at 128 and 256, causal or not = 4, at 0.3 s each.
    expected = 36 * 0.4421048192 + 4 * 0.3
    assert planned_cost_s("cpu", GEOMETRIES["cpu"], [128, 256, 512]) == pytest.approx(expected, rel=1e-12)


def test_sequence_lengths_grow_with_the_share_from_a_floor_of_three() -> None:
    ladder = list(GEOMETRIES["cpu"].lengths)
    assert sequence_lengths("cpu", 0.0) == ladder[:MIN_LENGTHS]  # a tiny share still gets the smallest
    four = planned_cost_s("cpu", GEOMETRIES["cpu"], ladder[:4])
    assert sequence_lengths("cpu", four) == ladder[:4]
    assert sequence_lengths("cpu", four * (1 - 1e-9)) == ladder[:3]
    assert sequence_lengths("cpu", 1e9) == ladder
    previous: list[int] = []
    for share in (1, 10, 30, 60, 300, 1000, 3000):
        lengths = sequence_lengths("cpu", share)
        assert lengths[: len(previous)] == previous and len(lengths) >= MIN_LENGTHS
        assert all(longer == 2 * shorter for shorter, longer in zip(lengths, lengths[1:]))
        previous = lengths


def test_accelerators_sweep_16_bit_dtypes_from_512() -> None:
    for kind in ("cuda", "npu"):
        cases = attention_cases(_device_of(kind), share_s=1e6)
        assert {case.dtype for case in cases} == {"fp16", "bf16"}
        assert min(case.shape["seq"] for case in cases) == 512
        assert max(case.shape["seq"] for case in cases) >= 8192
        assert {case.shape["head_dim"] for case in cases} == {128}


# ---------------------------------------------------------------- planning


def test_cpu_cases_cover_lengths_dtypes_and_masks_with_work_declared() -> None:
    cases = attention_cases(Device(), share_s=20.0)
    lengths = sequence_lengths("cpu", 20.0)
    assert [case.shape["seq"] for case in cases] == sorted(case.shape["seq"] for case in cases)
    assert {(case.shape["seq"], case.dtype, case.options["causal"]) for case in cases} == {
        (seq, dtype, causal) for seq in lengths for dtype in ("fp32", "bf16") for causal in (False, True)
    }
    for case in cases:
        assert list(case.shape) == ["batch", "heads", "seq", "head_dim"] and case.layout == "bhsd"
        assert case.options == {"causal": case.options["causal"]}  # identity only, no results
        assert case.flops is not None and case.flops > 0 and case.bytes_moved is not None
        assert case.bytes_moved > 0 and case.tolerance is None


def test_planning_pairs_every_implementation_and_is_stable() -> None:
    loaded = load_probe("attention")
    assert [found.name for found in loaded.implementations] == IMPLEMENTATIONS
    assert [found.name for found in loaded.implementations if found.baseline] == ["naive"]

    def planned_ids(device: Any) -> list[tuple[str, str | None]]:
        planned = plan_cases(loaded, device, 20.0)
        return [
            (entry.case.key("attention", entry.implementation.name, device.kind).case_id, entry.skip_reason)
            for entry in planned
        ]

    first, second = planned_ids(Device()), planned_ids(Device())
    assert first == second and len(first) == len(attention_cases(Device(), 20.0)) * len(IMPLEMENTATIONS)
    assert all(reason is None for _, reason in first)
    assert "attention/naive/fp32/batch=1,heads=2,seq=128,head_dim=64/bhsd/cpu/causal=false" in dict(first)
    on_npu = dict(planned_ids(_device_of("npu")))
    enabled = {case_id.split("/")[1] for case_id, reason in on_npu.items() if reason is None}
    assert enabled == {"naive"}  # SDPA's backend switch and the Triton kernel are CPU/CUDA paths
    assert all(reason == "not enabled on npu" for reason in on_npu.values() if reason is not None)


# ---------------------------------------------------------------- builders


def _extra_bytes(build: Any, case: CaseSpec) -> float:
    bench = build(case, Device())
    assert bench.extra_metrics is not None and bench.untimed is None
    metric = bench.extra_metrics()["attn_extra_bytes"]
    assert metric.unit == "B"
    numeric = compare(bench.run(), bench.reference(), tolerance_for(case.dtype, case.tolerance))
    assert numeric.passed, numeric.detail
    return metric.value


def test_naive_scratch_is_two_score_buffers_and_grows_quadratically() -> None:
    lengths = [128, 256, 512]
    extra = [_extra_bytes(naive, _cpu_case(seq)) for seq in lengths]
    # scores and scaled scores (then scaled scores and probabilities) live at once: 2 x heads x N^2 x 4 B.
    assert extra == [2 * 2 * seq * seq * 4 for seq in lengths]
    assert fit_growth(list(zip(lengths, extra))) == pytest.approx(2.0)


@pytest.fixture
def two_threads() -> Iterator[None]:
    """CPU flash keeps tiles per thread: pin the count so its scratch does not depend on the machine."""
    threads = torch.get_num_threads()
    torch.set_num_threads(2)
    yield
    torch.set_num_threads(threads)


@pytest.mark.usefixtures("two_threads")
def test_flash_scratch_stays_far_below_one_score_buffer() -> None:
    lengths = [128, 256, 512]
    extra = [_extra_bytes(sdpa_flash, _cpu_case(seq, causal=True)) for seq in lengths]
    one_buffer = [2 * seq * seq * 4 for seq in lengths]  # 2 heads x N^2 fp32 scores
    assert all(0 < value < buffer for value, buffer in zip(extra, one_buffer))
    assert extra[-1] < one_buffer[-1] / 4  # at 512 its per-thread tiles are already small beside N^2
    assert fit_growth(list(zip(lengths, extra))) < 1.5
    assert _extra_bytes(sdpa_math, _cpu_case(512, dtype="bf16")) >= 2 * 512 * 512 * 2  # it materializes too


def test_backends_without_a_cpu_kernel_are_refused_with_torch_reason() -> None:
    with pytest.raises(Unsupported, match="EFFICIENT_ATTENTION has no kernel for this case here"):
        sdpa_efficient(_cpu_case(128), Device())


def test_first_call_keeps_torch_warnings_as_the_reason_and_lets_other_errors_through() -> None:
    q = torch.zeros(1)

    def refused(*_: torch.Tensor) -> torch.Tensor:
        # What CUDA's SDPA does for a forced backend that cannot take the case.
        warnings.warn("Flash attention kernel not used because:")
        warnings.warn("Flash attention requires head_dim <= 256,\n got 512")
        raise RuntimeError("No available kernel. Aborting execution.")

    with pytest.raises(Unsupported) as refusal:
        first_call(refused, q, q, q, SDPBackend.FLASH_ATTENTION)
    assert str(refusal.value) == (
        "FLASH_ATTENTION has no kernel for this case here: No available kernel. Aborting execution. (torch: "
        "Flash attention kernel not used because:; Flash attention requires head_dim <= 256, got 512)"
    )

    def broken(*_: torch.Tensor) -> torch.Tensor:
        raise RuntimeError("CUDA error: an illegal memory access was encountered")

    with pytest.raises(RuntimeError, match="illegal memory access"):
        first_call(broken, q, q, q, SDPBackend.CUDNN_ATTENTION)


def test_checked_rows_spread_to_the_last_row_by_hand() -> None:
    assert checked_rows(128) == slice(1, 128, 2)  # 1, 3, ..., 127: 64 rows
    assert checked_rows(4096) == slice(63, 4096, 64)  # 63, 127, ..., 4095
    assert checked_rows(100) == slice(0, 100, 1)  # under 2 x 64 rows: all of them
    assert len(range(4096)[checked_rows(4096)]) == CHECKED_ROWS


def test_materializing_implementations_refuse_what_memory_cannot_hold() -> None:
    with pytest.raises(Unsupported, match=r"naive scores need about .* GiB, more than 80% of the .* GiB free on cpu"):
        require_free_memory(Device(), 1e18, "naive scores")
    require_free_memory(Device(), 1.0, "a byte")


def test_triton_is_interpreted_untimed_and_refuses_bf16(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRITON_INTERPRET", "0")  # the builder sets it; monkeypatch restores it after
    with pytest.raises(Unsupported, match="bf16"):
        triton_fused(_cpu_case(128, dtype="bf16"), Device())
    with pytest.raises(Unsupported, match="too long for the Triton interpreter"):
        triton_fused(_cpu_case(512), Device())
    case = _cpu_case(128, causal=True)
    bench = triton_fused(case, Device())
    assert bench.untimed is not None and "interpreter" in bench.untimed and bench.reference is not None
    assert compare(bench.run(), bench.reference(), tolerance_for("fp32")).passed


# ---------------------------------------------------------------- end to end


@pytest.fixture(scope="module")
def evidence() -> Evidence:
    return run_probes(["attention"], budget_s=20, device="cpu")


def _by_implementation(evidence: Evidence) -> dict[str, list[ProbeCase]]:
    found: dict[str, list[ProbeCase]] = {name: [] for name in IMPLEMENTATIONS}
    for case in evidence.cases:
        found[case.key.implementation].append(case)
    return found


def test_run_records_every_planned_pair(evidence: Evidence) -> None:
    (run,) = evidence.probe_runs
    assert run.status == "ok" and run.restarts == 0 and run.sized_for_s is not None
    planned = {
        case.key("attention", name, "cpu").case_id
        for case in attention_cases(Device(), run.sized_for_s)
        for name in IMPLEMENTATIONS
    }
    assert [case.key.case_id for case in evidence.cases] and {case.key.case_id for case in evidence.cases} == planned
    assert len(evidence.cases) == len(planned)


def _for_want_of_time(case: ProbeCase) -> bool:
    """Untimed or unrun because the share ran out: a slow moment of this shared machine, not a fault."""
    return case.status in ("not-timed", "skipped") and "time share" in (case.reason or "")


def test_run_statuses_reasons_numerics_and_metrics(evidence: Evidence) -> None:
    found = _by_implementation(evidence)
    for name in TIMED_ON_CPU:
        for case in found[name]:
            where = (case.key.case_id, case.status, case.reason)
            if case.numeric is not None:
                assert case.numeric.passed, where
            if case.status != "ok":
                assert _for_want_of_time(case), where
                continue
            assert case.numeric is not None and case.memory is not None and case.memory.peak_bytes, where
            assert case.timing is not None and case.timing.stats.median > 0
            units = {metric: value.unit for metric, value in case.metrics.items()}
            wanted = {"tflops": "TFLOP/s", "gbps": "GB/s", "attn_extra_bytes": "B"}
            assert {metric: units.get(metric) for metric in wanted} == wanted, where
            assert set(units) - set(wanted) <= {"pct_of_peak"}  # the runner's, where the peak is known
    assert any(case.status == "ok" for name in TIMED_ON_CPU for case in found[name])
    for name in NO_KERNEL_ON_CPU:
        for case in found[name]:
            assert case.status == "skipped", case.key.case_id
            assert "has no kernel" in (case.reason or "") or _for_want_of_time(case), case.reason
    for case in found["triton"]:
        shape = case.key.shape
        if _for_want_of_time(case):
            continue
        if case.key.dtype == "fp32" and interpreter_affordable(shape["batch"], shape["heads"], shape["seq"]):
            assert case.status == "not-timed" and "Triton interpreter" in (case.reason or "")
            assert case.numeric is not None and case.numeric.passed
        else:
            assert case.status == "skipped" and (case.reason or "").startswith("unsupported: ")
