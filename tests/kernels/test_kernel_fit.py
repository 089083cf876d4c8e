"""The fit guard, the target table and their parsing, without compiling anything (fast)."""

from __future__ import annotations

import pytest
import torch

from probes.gemm.triton_tiles import LARGE_TILES, SKINNY_TILE, fit_refusal
from probes.kernels import jit_helper
from probes.kernels.targets import TARGETS, Footprint, target_for_device, target_name


def test_limits_are_the_vendor_figures() -> None:
    # CUDA C++ Programming Guide (163 KB / 227 KB per block, 255 and 64 K registers), PTX ISA (512
    # tensor-memory columns), ROCm GPU specifications (64 KiB LDS) and LLVM AMDGPU docs (256 + 256 registers).
    assert [TARGETS[name].shared_bytes_per_block for name in ("sm_80", "sm_90", "sm_100", "gfx942")] == [
        166912,
        232448,
        232448,
        65536,
    ]
    assert {TARGETS[name].registers_per_thread for name in ("sm_80", "sm_90", "sm_100")} == {255}
    assert TARGETS["gfx942"].registers_per_thread == TARGETS["gfx942"].accumulation_registers_per_thread == 256
    assert TARGETS["sm_100"].tensor_memory_columns == 512 and TARGETS["sm_90"].tensor_memory_columns is None
    assert {target.warp_size for target in TARGETS.values()} == {32, 64}


@pytest.mark.parametrize(
    "footprint, breach",
    [
        (Footprint(shared_bytes=232449, registers=64, threads=128), "shared memory"),
        (Footprint(shared_bytes=0, registers=256, threads=32), "registers per thread"),
        (Footprint(shared_bytes=0, registers=255, threads=512), "registers per block"),
        (Footprint(shared_bytes=0, registers=64, threads=128, tensor_memory_columns=513), "tensor-memory columns"),
    ],
)
def test_each_nvidia_limit_is_checked(footprint: Footprint, breach: str) -> None:
    (found,) = footprint.breaches(TARGETS["sm_100"])
    assert breach in found


def test_amd_limits_are_checked_per_register_file() -> None:
    target = TARGETS["gfx942"]
    assert Footprint(shared_bytes=65536, registers=256, threads=512, accumulation_registers=256).breaches(target) == []
    (found,) = Footprint(shared_bytes=0, registers=64, threads=256, accumulation_registers=257).breaches(target)
    assert "accumulation registers" in found
    (found,) = Footprint(shared_bytes=65537, registers=64, threads=256).breaches(target)
    assert "65,537 bytes of shared memory > 64 KiB per block" in found


def test_tensor_memory_on_a_target_without_it_is_a_breach() -> None:
    (found,) = Footprint(shared_bytes=0, registers=64, threads=128, tensor_memory_columns=64).breaches(TARGETS["sm_90"])
    assert "tensor-memory" in found


@pytest.mark.parametrize(
    "capability, gcn_arch, name",
    [
        ((9, 0), None, "sm_90"),
        ((8, 0), None, "sm_80"),
        ((10, 0), None, "sm_100"),
        ((8, 6), None, "sm_86"),
        ((9, 4), "gfx942:sramecc+:xnack-", "gfx942"),
        (None, "gfx90a", "gfx90a"),
        (None, None, None),
    ],
)
def test_target_names_follow_the_compiler(capability, gcn_arch, name) -> None:
    assert target_name(capability, gcn_arch) == name


def test_a_cpu_device_has_no_target() -> None:
    assert target_for_device(torch.device("cpu")) is None


def test_the_gemm_probe_refuses_a_tile_before_building_inputs() -> None:
    largest, _ = LARGE_TILES
    reason = fit_refusal(largest, "fp32", "sm_80", "ieee")
    assert reason is not None and "192 KiB of shared memory > 163 KiB per block" in reason and "A100" in reason
    assert "96 KiB of shared memory > 64 KiB per block" in (fit_refusal(largest, "bf16", "gfx942", "ieee") or "")
    assert fit_refusal(largest, "fp16", "sm_90", "ieee") is None
    assert fit_refusal(SKINNY_TILE, "fp32", "gfx942", "ieee") is None


def test_the_gemm_probe_leaves_unknown_cases_to_the_launch() -> None:
    largest, _ = LARGE_TILES
    assert fit_refusal(largest, "fp32", None, "ieee") is None  # no known target (sm_86, sm_120, gfx90a, ...)
    assert fit_refusal(largest, "fp32", "sm_86", "ieee") is None
    assert fit_refusal(largest, "fp32", "sm_80", "tf32") is None  # the table holds ieee fp32 only


def test_jit_helpers_are_the_helper_when_compiled_and_its_function_when_interpreted(monkeypatch) -> None:
    import triton.language as tl

    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    assert jit_helper(tl.max) is tl.max
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    assert jit_helper(tl.max) is getattr(tl.max, "fn")
