"""/proc/cpuinfo from several machine kinds -> CPUInfo and peaks computed by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from probes.environment.cpu import build_cpu_info, parse_cpuinfo
from probes.environment.peaks import cpu_peak

MACHINES = Path(__file__).parent / "machines"


def cpu_from(name: str, architecture: str = "x86_64", **kwargs):
    return build_cpu_info(parse_cpuinfo((MACHINES / name).read_text()), architecture, **kwargs)


def test_avx2_only_amd_epyc():
    cpu = cpu_from("epyc-7742-avx2.cpuinfo")
    assert (cpu.vendor, cpu.model_name) == ("AuthenticAMD", "AMD EPYC 7742 64-Core Processor")
    assert (cpu.physical_cores, cpu.logical_cores, cpu.sockets) == (2, 4, 1)
    assert cpu.isa.avx2 and cpu.isa.fma and not cpu.isa.avx512f and not cpu.isa.amx_tile
    assert cpu.isa.source == "/proc/cpuinfo"
    # No GHz rating in the name: the clock is cpu MHz.
    assert (cpu.clock_ghz, cpu.clock_source) == (2.25, "/proc/cpuinfo cpu MHz")
    peak = cpu_peak(cpu)
    # 2 cores x 2.25 GHz x 8 lanes x 2 FMA units x 2 = 144 GFLOP/s
    assert peak.tflops["fp32"] == pytest.approx(0.144)
    assert peak.tflops["bf16"] is None and peak.tflops["fp16"] is None and peak.tflops["int8"] is None
    assert peak.tflops["fp8"] is None


def test_avx512_cascade_lake_xeon_uses_rated_clock():
    cpu = cpu_from("xeon-8280-avx512.cpuinfo")
    assert (cpu.physical_cores, cpu.logical_cores, cpu.sockets) == (4, 4, 2)
    assert cpu.isa.avx512f and cpu.isa.avx512_vnni and not cpu.isa.avx512_bf16
    # cpu MHz says 1000 (idle); the "@ 2.70GHz" rating wins.
    assert (cpu.clock_ghz, cpu.clock_source) == (2.7, "model name rating")
    peak = cpu_peak(cpu)
    # 4 x 2.7 GHz x 16 lanes x 2 x 2 = 691.2 GFLOP/s; VNNI int8 = 4x = 2764.8 GOP/s
    assert peak.tflops["fp32"] == pytest.approx(0.6912)
    assert peak.tflops["int8"] == pytest.approx(2.7648)
    assert peak.tflops["bf16"] is None


def test_amx_sapphire_rapids_prefers_cpufreq_maximum():
    cpu = cpu_from("xeon-8480-amx.cpuinfo", max_freq_khz=3_800_000)
    assert (cpu.physical_cores, cpu.logical_cores) == (4, 8)
    assert cpu.isa.amx_tile and cpu.isa.amx_bf16 and cpu.isa.amx_int8 and cpu.isa.avx512_fp16
    assert not cpu.isa.amx_fp16
    assert (cpu.clock_ghz, cpu.clock_source) == (3.8, "cpufreq cpuinfo_max_freq")
    peak = cpu_peak(cpu)
    # 4 cores x 3.8 GHz: fp32 16x2x2=64 -> 0.9728; AMX bf16 1024 -> 15.5648; AMX int8 2048 -> 31.1296;
    # fp16 via AVX512-FP16 = 2 x fp32 -> 1.9456
    assert peak.tflops["fp32"] == pytest.approx(0.9728)
    assert peak.tflops["bf16"] == pytest.approx(15.5648)
    assert peak.tflops["int8"] == pytest.approx(31.1296)
    assert peak.tflops["fp16"] == pytest.approx(1.9456)
    assert any("AMX-BF16" in line for line in peak.assumptions)


def test_graviton3_arm_with_sve():
    cpu = cpu_from("graviton3-neoverse-v1.cpuinfo", "aarch64", max_freq_khz=2_600_000, sve_vector_bits=256)
    assert (cpu.vendor, cpu.model_name) == ("ARM", "Arm Neoverse V1")
    assert (cpu.physical_cores, cpu.logical_cores) == (4, 4)
    isa = cpu.isa
    assert isa.neon and isa.sve and isa.neon_dotprod and isa.arm_bf16 and isa.neon_fp16 and not isa.sve2
    assert isa.sve_vector_bits == 256 and not isa.avx2
    peak = cpu_peak(cpu)
    # 4 x 2.6 GHz x (256/32 = 8 lanes) x 2 x 2 = 332.8 GFLOP/s; bf16/fp16 2x; int8 4x
    assert peak.tflops["fp32"] == pytest.approx(0.3328)
    assert peak.tflops["bf16"] == pytest.approx(0.6656)
    assert peak.tflops["fp16"] == pytest.approx(0.6656)
    assert peak.tflops["int8"] == pytest.approx(1.3312)


def test_arm_without_clock_has_no_peak():
    cpu = cpu_from("graviton3-neoverse-v1.cpuinfo", "aarch64")
    assert cpu.clock_ghz is None
    assert cpu_peak(cpu) is None


def test_torch_capabilities_override_cpuinfo_flags():
    facts = parse_cpuinfo((MACHINES / "xeon-8280-avx512.cpuinfo").read_text())
    cpu = build_cpu_info(facts, "x86_64", torch_capabilities={"avx512_f": False, "avx2": True, "fma3": True})
    assert cpu.isa.source == "torch.cpu.get_capabilities"
    assert not cpu.isa.avx512f and cpu.isa.avx2
    # A flag torch does not report (vnni key absent) still comes from cpuinfo.
    assert cpu.isa.avx512_vnni


def test_empty_cpuinfo_is_not_a_crash():
    cpu = build_cpu_info(parse_cpuinfo(""), "riscv64")
    assert cpu.isa.source == "none" and cpu.logical_cores is None
    assert cpu_peak(cpu) is None
