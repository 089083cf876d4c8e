"""CPU facts: parse /proc/cpuinfo text, merge torch's view of the ISA, pick the clock for peaks."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from probes.environment.models import CPUInfo, ISAFeatures

# /proc/cpuinfo flag (x86) or Features word (Arm) -> ISAFeatures field.
_CPUINFO_FLAGS: dict[str, str] = {
    "avx2": "avx2",
    "fma": "fma",
    "avx512f": "avx512f",
    "avx512_vnni": "avx512_vnni",
    "avx512_bf16": "avx512_bf16",
    "avx512_fp16": "avx512_fp16",
    "avx_vnni": "avx_vnni",
    "amx_tile": "amx_tile",
    "amx_bf16": "amx_bf16",
    "amx_int8": "amx_int8",
    "amx_fp16": "amx_fp16",
    "asimd": "neon",
    "asimdhp": "neon_fp16",
    "asimddp": "neon_dotprod",
    "bf16": "arm_bf16",
    "sve": "sve",
    "sve2": "sve2",
}

# torch.cpu.get_capabilities() key -> ISAFeatures field (torch reports x86 features only).
_TORCH_CAPABILITIES: dict[str, str] = {
    "avx2": "avx2",
    "fma3": "fma",
    "avx512_f": "avx512f",
    "avx512_vnni": "avx512_vnni",
    "avx512_bf16": "avx512_bf16",
    "avx512_fp16": "avx512_fp16",
    "avx_vnni": "avx_vnni",
    "amx_tile": "amx_tile",
    "amx_bf16": "amx_bf16",
    "amx_int8": "amx_int8",
    "amx_fp16": "amx_fp16",
}

# Arm "CPU part" ids of common server cores (Arm Technical Reference Manuals, MIDR PartNum).
_ARM_PARTS: dict[str, str] = {
    "0xd0c": "Arm Neoverse N1",
    "0xd40": "Arm Neoverse V1",
    "0xd49": "Arm Neoverse N2",
    "0xd4f": "Arm Neoverse V2",
    "0xd8e": "Arm Neoverse N3",
    "0xd84": "Arm Neoverse V3",
}
_ARM_IMPLEMENTERS: dict[str, str] = {"0x41": "ARM", "0x48": "HiSilicon", "0xc0": "Ampere", "0x61": "Apple"}


@dataclass
class CpuinfoFacts:
    """What one /proc/cpuinfo says, before merging with other sources."""

    vendor: str | None = None
    model_name: str | None = None
    flags: set[str] = field(default_factory=set)
    logical_cores: int = 0
    physical_cores: int | None = None
    sockets: int | None = None
    mhz: float | None = None


def parse_cpuinfo(text: str) -> CpuinfoFacts:
    """Parse the text of /proc/cpuinfo (x86 or Arm layout)."""
    facts = CpuinfoFacts()
    cores_per_package: set[tuple[str, str]] = set()
    packages: set[str] = set()
    implementer = part = None
    for block in re.split(r"\n\s*\n", text.strip()):
        entry = _parse_block(block)
        if "processor" not in entry:
            continue
        facts.logical_cores += 1
        facts.vendor = facts.vendor or entry.get("vendor_id")
        facts.model_name = facts.model_name or entry.get("model name")
        facts.flags |= set((entry.get("flags") or entry.get("Features") or "").split())
        if facts.mhz is None and entry.get("cpu MHz"):
            facts.mhz = float(entry["cpu MHz"])
        if "physical id" in entry:
            packages.add(entry["physical id"])
            cores_per_package.add((entry["physical id"], entry.get("core id", entry["processor"])))
        implementer = implementer or entry.get("CPU implementer")
        part = part or entry.get("CPU part")
    if packages:
        facts.sockets = len(packages)
        facts.physical_cores = len(cores_per_package)
    elif implementer:  # Arm lists one core per block and has no SMT on server parts we know of.
        facts.physical_cores = facts.logical_cores
    if implementer and not facts.vendor:
        facts.vendor = _ARM_IMPLEMENTERS.get(implementer.lower(), implementer)
    if part and not facts.model_name:
        facts.model_name = _ARM_PARTS.get(part.lower(), f"Arm part {part}")
    return facts


def _parse_block(block: str) -> dict[str, str]:
    entry: dict[str, str] = {}
    for line in block.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            entry[key.strip()] = value.strip()
    return entry


def isa_from_flags(flags: set[str], torch_capabilities: Mapping[str, object] | None) -> ISAFeatures:
    """ISA features from torch's capability map where it has one, else from cpuinfo flags."""
    values: dict[str, bool] = {name: False for name in set(_CPUINFO_FLAGS.values())}
    for flag, name in _CPUINFO_FLAGS.items():
        values[name] = values[name] or flag in flags
    source = "/proc/cpuinfo" if flags else "none"
    if torch_capabilities:
        for key, name in _TORCH_CAPABILITIES.items():
            if key in torch_capabilities:
                values[name] = bool(torch_capabilities[key])
                source = "torch.cpu.get_capabilities"
    return ISAFeatures(**values, source=source)  # type: ignore[arg-type]


def clock_ghz(facts: CpuinfoFacts, max_freq_khz: int | None) -> tuple[float | None, str | None]:
    """The clock used for peak figures: cpufreq maximum, else the model name's rating, else cpu MHz."""
    if max_freq_khz:
        return round(max_freq_khz / 1e6, 3), "cpufreq cpuinfo_max_freq"
    rated = re.search(r"@\s*([\d.]+)\s*GHz", facts.model_name or "")
    if rated:
        return float(rated.group(1)), "model name rating"
    if facts.mhz:
        return round(facts.mhz / 1000, 3), "/proc/cpuinfo cpu MHz"
    return None, None


def read_max_freq_khz(sysfs: Path = Path("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")) -> int | None:
    """cpufreq's maximum frequency in kHz, or None where the kernel does not expose it (VMs)."""
    try:
        return int(sysfs.read_text().strip())
    except (OSError, ValueError):
        return None


def read_sve_vector_bits(path: Path = Path("/proc/sys/abi/sve_default_vector_length")) -> int | None:
    """The default SVE vector length in bits, where the kernel exposes it."""
    try:
        return int(path.read_text().strip()) * 8
    except (OSError, ValueError):
        return None


def build_cpu_info(
    facts: CpuinfoFacts,
    architecture: str,
    *,
    torch_capabilities: Mapping[str, object] | None = None,
    max_freq_khz: int | None = None,
    physical_cores: int | None = None,
    sve_vector_bits: int | None = None,
) -> CPUInfo:
    """Combine parsed cpuinfo with other sources into the CPUInfo model."""
    isa = isa_from_flags(facts.flags, torch_capabilities)
    if isa.sve:
        isa = isa.model_copy(update={"sve_vector_bits": sve_vector_bits})
    ghz, clock_source = clock_ghz(facts, max_freq_khz)
    return CPUInfo(
        vendor=facts.vendor,
        model_name=facts.model_name,
        architecture=architecture,
        physical_cores=physical_cores or facts.physical_cores,
        logical_cores=facts.logical_cores or None,
        sockets=facts.sockets,
        clock_ghz=ghz,
        clock_source=clock_source,
        isa=isa,
    )
