"""The Triton kernels compiled ahead of time for sm_80, sm_90, sm_100 and gfx942 on this CPU-only machine.

Every (kernel, tile, dtype) the gemm and attention probes launch on a GPU is compiled once per
target (two processes, ~45 s on two cores) and the tests read the same builds: each compiles, fits
its target or is refused by the guard the GEMM probe asks, matches the checked-in footprint table,
and runs its dots on the target's tensor-core instructions.
"""

from __future__ import annotations

import inspect

import pytest
import torch
import triton.language as tl
from triton.backends.compiler import BaseBackend
from triton.runtime.jit import mangle_type

from probes.kernels import aot, launch_configs
from probes.kernels.fit import config_unfit_reason, tiles_that_fit
from probes.kernels.footprints import FOOTPRINTS, TRITON_VERSION
from probes.kernels.targets import TARGETS
from probes.kernels.tiles import MATMUL_DEFAULT_TILE, MATMUL_LARGE_TILES, MATMUL_SKINNY_TILE

BuildKey = tuple[str, str, str, str]
REGENERATE = "regenerate probes/kernels/footprints.py with probes.kernels.aot.write_footprints()"

# Configs that exceed a target's per-block limits (and so must be refused before launch).
UNFIT = {
    ("matmul", "128x256x64-w8-s3", "fp32", "sm_80"),  # 192 KiB of shared memory > 163 KiB
    ("matmul", "128x256x64-w8-s3", "fp32", "gfx942"),  # 192 KiB > 64 KiB of LDS
    ("matmul", "128x256x64-w8-s3", "fp16", "gfx942"),  # 96 KiB > 64 KiB
    ("matmul", "128x256x64-w8-s3", "bf16", "gfx942"),
    ("matmul", "128x128x32-w4-s4", "fp32", "gfx942"),  # 96 KiB > 64 KiB
}


@pytest.fixture(scope="module")
def builds() -> dict[BuildKey, aot.KernelBuild]:
    compiled = aot.compile_all(workers=2)
    return {(b.config.kernel, b.config.name, b.config.dtype, b.target.name): b for b in compiled}


def test_every_probe_config_compiles_for_every_target(builds: dict[BuildKey, aot.KernelBuild]) -> None:
    assert len(builds) == len(launch_configs.probe_configs()) * len(TARGETS) == 64
    for key, build in builds.items():
        assert build.binary_bytes > 0 and build.compile_s > 0, key


def test_each_config_fits_its_target_or_the_guard_refuses_it(builds: dict[BuildKey, aot.KernelBuild]) -> None:
    assert {key for key, build in builds.items() if not build.fits} == UNFIT
    for key, build in builds.items():
        reason = config_unfit_reason(*key)
        if build.fits:
            assert reason is None, key
        else:
            assert reason is not None and all(breach in reason for breach in build.breaches), key


def test_the_footprint_table_is_what_a_fresh_compile_reads(builds: dict[BuildKey, aot.KernelBuild]) -> None:
    import triton

    assert TRITON_VERSION == triton.__version__, REGENERATE
    assert set(FOOTPRINTS) == set(builds), REGENERATE
    stale = [key for key, build in builds.items() if FOOTPRINTS[key] != build.footprint]
    assert not stale, f"{REGENERATE}: {stale}"


def test_16_bit_dots_run_on_each_targets_tensor_cores(builds: dict[BuildKey, aot.KernelBuild]) -> None:
    for (kernel, name, dtype, target), build in builds.items():
        if dtype == "fp32":
            continue
        expected = TARGETS[target].matrix_instruction
        # wgmma is issued by a warpgroup (4 warps) and Triton uses tcgen05 only from 4 warps too: the
        # 2-warp decode tile runs Ampere's mma.sync on Hopper and Blackwell (still tensor cores).
        if build.config.num_warps < 4 and target in ("sm_90", "sm_100"):
            expected = "mma.sync"
        assert build.instruction_mix[expected] > 0, (kernel, name, dtype, target, build.instruction_mix)


def test_fp32_dots_in_ieee_precision_stay_off_nvidia_tensor_cores(builds: dict[BuildKey, aot.KernelBuild]) -> None:
    for key, build in builds.items():
        if key[2] == "fp32" and build.target.backend == "cuda":
            mix = build.instruction_mix
            assert mix["fma.f32"] > 0 and mix["mma.sync"] == mix["wgmma"] == mix["tcgen05.mma"] == 0, key


def test_the_guard_keeps_the_tiles_that_fit(builds: dict[BuildKey, aot.KernelBuild]) -> None:
    tiles = [MATMUL_DEFAULT_TILE, *MATMUL_LARGE_TILES, MATMUL_SKINNY_TILE]
    assert tiles_that_fit("sm_90", "fp32", tiles) == tiles
    assert tiles_that_fit("sm_80", "fp32", tiles) == [MATMUL_DEFAULT_TILE, MATMUL_LARGE_TILES[1], MATMUL_SKINNY_TILE]
    assert tiles_that_fit("gfx942", "bf16", tiles) == [MATMUL_DEFAULT_TILE, MATMUL_LARGE_TILES[1], MATMUL_SKINNY_TILE]
    assert tiles_that_fit("gfx942", "fp32", tiles) == [MATMUL_DEFAULT_TILE, MATMUL_SKINNY_TILE]
    assert tiles_that_fit("sm_86", "fp16", tiles) == tiles  # not compiled for: no verdict, the launch decides


@pytest.mark.parametrize("value", [1, 16, 17, 4096, 2**31, 2**40 + 3, 0.5])
def test_arguments_specialise_as_tritons_jit_does(value: object) -> None:
    kind, divisible = aot._specialise(value)
    assert kind == mangle_type(value, specialize=True)
    if kind.startswith("i"):
        assert divisible == (BaseBackend.get_int_specialization(value, align=True) == "D")


def test_tensor_arguments_are_pointers_to_their_dtype() -> None:
    for name, dtype in (("fp16", torch.float16), ("bf16", torch.bfloat16), ("fp32", torch.float32)):
        assert aot._specialise(launch_configs.Pointer(name)) == (mangle_type(torch.empty(1, dtype=dtype)), True)


def test_the_compiled_configs_are_the_probes_own() -> None:
    from probes.attention.sizing import GEOMETRIES
    from probes.gemm.probe import DTYPES
    from probes.gemm.triton_tiles import DEFAULT_TILE, LARGE_TILES, SKINNY_TILE
    from probes.kernels.tiles import ATTENTION_TILE
    from probes.kernels.triton_attention import triton_attention
    from probes.kernels.triton_matmul import MATMUL_CONFIGS

    assert (DEFAULT_TILE, LARGE_TILES, SKINNY_TILE) == (MATMUL_DEFAULT_TILE, MATMUL_LARGE_TILES, MATMUL_SKINNY_TILE)
    assert all(tile in MATMUL_CONFIGS for tile in (MATMUL_DEFAULT_TILE, *MATMUL_LARGE_TILES, MATMUL_SKINNY_TILE))
    assert launch_configs.MATMUL_DTYPES == DTYPES and launch_configs.ATTENTION_DTYPES == GEOMETRIES["cuda"].dtypes
    assert launch_configs.ATTENTION_GEOMETRY["head_dim"] == GEOMETRIES["cuda"].head_dim
    defaults = {name: p.default for name, p in inspect.signature(triton_attention).parameters.items()}
    assert {name: defaults[name] for name in ATTENTION_TILE} == ATTENTION_TILE


def test_the_attention_kernel_gets_the_reductions_the_jit_compiles() -> None:
    _, helpers = aot._kernel("attention")
    assert helpers == {"ROW_MAX": tl.max, "ROW_SUM": tl.sum}
