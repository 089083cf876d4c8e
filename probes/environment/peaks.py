"""Theoretical peak throughput: computed for CPUs, looked up in a sourced table for accelerators."""

from __future__ import annotations

import os
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from probes.environment.models import PEAK_DTYPES, CPUInfo, Dtype, PeakFigures
from probes.errors import AdvisorError
from probes.files.bounded_read import FileKind, read_bounded_text
from probes.files.safe_yaml import DataLoader

PEAKS_FILE_VARIABLE = "ADVISOR_PEAKS_FILE"

# Matrix engines have fixed per-core rates, not lanes x FMA units. Source: Intel Architecture
# Instruction Set Extensions Programming Reference, AMX chapter, and Intel's AMX overview: a core's
# TMUL does 1,024 BF16 (and FP16 on AMX-FP16 parts) FLOPs and 2,048 INT8 OPs per cycle.
_AMX_BF16_FLOPS_PER_CYCLE = 1024
_AMX_INT8_OPS_PER_CYCLE = 2048
# Two vector FMA pipes per core: Intel Xeon Scalable Gold/Platinum (Skylake-SP onward) for AVX-512,
# Intel client and AMD Zen for AVX2, Arm Neoverse N1/V1/V2 for 128-bit NEON. Not detectable; assumed.
_ASSUMED_FMA_UNITS = 2


class PeakTableError(AdvisorError):
    """The accelerator peak table (built-in or ADVISOR_PEAKS_FILE) is malformed."""


MAX_PEAKS_FILE_BYTES = 1 << 20  # the built-in table of every accelerator family is 17 KB
PEAKS_FILE = FileKind("peak table", MAX_PEAKS_FILE_BYTES, PeakTableError)


class AcceleratorPeak(BaseModel):
    """One row of the accelerator peak table."""

    model_config = ConfigDict(extra="forbid")

    name: str
    kind: Literal["gpu", "npu", "hpu", "tpu", "neuron"]
    match: str
    source: str
    tflops: dict[Dtype, float | None]
    memory_bandwidth_gbs: float | None = None

    @field_validator("match")
    @classmethod
    def _is_a_pattern(cls, match: str) -> str:
        try:
            re.compile(match, flags=re.IGNORECASE)
        except re.error as error:
            raise ValueError(f"match {match[:60]!r} is not a regular expression ({error})") from None
        return match

    def figures(self) -> PeakFigures:
        tflops = {dtype: self.tflops.get(dtype) for dtype in PEAK_DTYPES}
        return PeakFigures(
            device=self.name,
            kind=self.kind,
            tflops=tflops,
            memory_bandwidth_gbs=self.memory_bandwidth_gbs,
            source=self.source,
            assumptions=[
                "dense (non-sparse) matrix-unit figures; fp32 is the non-tensor rate",
                "null = no such path, or no vendor figure for that dtype (never derived from another chip)",
            ],
        )


class _PeakTable(BaseModel):
    accelerators: list[AcceleratorPeak]


def _parse_table(text: str, origin: str) -> list[AcceleratorPeak]:
    try:
        return _PeakTable.model_validate(yaml.load(text, Loader=DataLoader)).accelerators  # noqa: S506 - a SafeLoader
    except RecursionError:
        raise PeakTableError(f"{origin}: nested too deeply to be a peak table") from None
    except (yaml.YAMLError, ValidationError) as error:
        first = str(error).splitlines()
        raise PeakTableError(f"{origin}: not a valid peak table ({' '.join(first[:3])[:300]})") from None


@lru_cache(maxsize=1)
def builtin_table() -> tuple[AcceleratorPeak, ...]:
    """The table shipped in advisor/data/accelerator_peaks.yaml."""
    text = resources.files("advisor.data").joinpath("accelerator_peaks.yaml").read_text()
    return tuple(_parse_table(text, "advisor/data/accelerator_peaks.yaml"))


def accelerator_table() -> list[AcceleratorPeak]:
    """The user's ADVISOR_PEAKS_FILE entries (tried first), then the built-in table."""
    extra: list[AcceleratorPeak] = []
    override = os.environ.get(PEAKS_FILE_VARIABLE)
    if override:
        origin = f"{PEAKS_FILE_VARIABLE}={override}"
        extra = _parse_table(read_bounded_text(Path(override), PEAKS_FILE, origin), origin)
    return [*extra, *builtin_table()]


def accelerator_peak(device_name: str, table: list[AcceleratorPeak] | None = None) -> PeakFigures | None:
    """Dense peak figures for a named accelerator, or None when the table does not know it."""
    name = device_name.strip()  # tools pad names in tables; anchored patterns would miss them
    for row in table if table is not None else accelerator_table():
        if re.search(row.match, name, flags=re.IGNORECASE):
            return row.figures()
    return None


def cpu_peak(cpu: CPUInfo) -> PeakFigures | None:
    """Peak = cores x clock x SIMD lanes x FMA units x 2 per dtype, with the assumptions spelled out."""
    if not cpu.physical_cores or not cpu.clock_ghz:
        return None
    isa = cpu.isa
    fp32_lanes, vector_name = _fp32_lanes(cpu)
    if fp32_lanes is None:
        return None
    per_cycle: dict[Dtype, float | None] = {dtype: None for dtype in PEAK_DTYPES}
    fp32_per_cycle = fp32_lanes * _ASSUMED_FMA_UNITS * 2
    per_cycle["fp32"] = fp32_per_cycle
    assumptions = [
        f"{cpu.physical_cores} physical cores x {cpu.clock_ghz} GHz ({cpu.clock_source})",
        f"fp32: {vector_name}, {fp32_lanes} lanes x {_ASSUMED_FMA_UNITS} FMA units (assumed) x 2 FLOPs per FMA",
        "all cores at that clock; vector-licence down-clocking under AVX-512/AMX is not modelled",
    ]
    if isa.amx_bf16:
        per_cycle["bf16"] = _AMX_BF16_FLOPS_PER_CYCLE
        assumptions.append(f"bf16: AMX-BF16 tile unit, {_AMX_BF16_FLOPS_PER_CYCLE} FLOPs/cycle/core")
    elif isa.avx512_bf16 or isa.arm_bf16:
        per_cycle["bf16"] = 2 * fp32_per_cycle
        assumptions.append("bf16: dot-product instructions (2 products per fp32 lane) = 2x fp32")
    if isa.amx_fp16:
        per_cycle["fp16"] = _AMX_BF16_FLOPS_PER_CYCLE
        assumptions.append(f"fp16: AMX-FP16 tile unit, {_AMX_BF16_FLOPS_PER_CYCLE} FLOPs/cycle/core")
    elif isa.avx512_fp16 or isa.neon_fp16:
        per_cycle["fp16"] = 2 * fp32_per_cycle
        assumptions.append("fp16: native half-precision FMA (twice the lanes) = 2x fp32")
    if isa.amx_int8:
        per_cycle["int8"] = _AMX_INT8_OPS_PER_CYCLE
        assumptions.append(f"int8: AMX-INT8 tile unit, {_AMX_INT8_OPS_PER_CYCLE} OPs/cycle/core")
    elif isa.avx512_vnni or isa.avx_vnni or isa.neon_dotprod:
        per_cycle["int8"] = 4 * fp32_per_cycle
        assumptions.append("int8: VNNI/dot-product (4 int8 products per 32-bit lane) = 4x fp32")
    assumptions.append("null = no native path for that dtype on this CPU (emulated or converted)")
    scale = cpu.physical_cores * cpu.clock_ghz * 1e9 / 1e12
    tflops = {dtype: None if rate is None else round(rate * scale, 4) for dtype, rate in per_cycle.items()}
    return PeakFigures(
        device=cpu.model_name or "cpu",
        kind="cpu",
        tflops=tflops,
        source="computed: cores x clock x SIMD lanes x FMA units x 2",
        assumptions=assumptions,
    )


def _fp32_lanes(cpu: CPUInfo) -> tuple[int | None, str]:
    isa = cpu.isa
    if isa.avx512f:
        return 16, "AVX-512"
    if isa.avx2 and isa.fma:
        return 8, "AVX2+FMA"
    if isa.sve and isa.sve_vector_bits:
        return isa.sve_vector_bits // 32, f"SVE {isa.sve_vector_bits}-bit"
    if isa.neon:
        return 4, "NEON 128-bit"
    return None, "none"
