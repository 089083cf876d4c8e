"""GPU and NPU facts from vendor tools' text output (parsed here, run in detect.py)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from advisor.environment.models import GPUInfo

# What detect.py asks nvidia-smi for; parse_nvidia_smi reads exactly these columns.
NVIDIA_SMI_QUERY = "index,name,compute_cap,memory.total,driver_version"
NVIDIA_SMI_ARGS = ["--query-gpu=" + NVIDIA_SMI_QUERY, "--format=csv,noheader,nounits"]

_DEFAULT_TOOLKIT_HOME = "/usr/local/Ascend/ascend-toolkit/latest"


def cann_version_files() -> list[Path]:
    """Where a CANN toolkit records its version: under $ASCEND_TOOLKIT_HOME (set by CANN's set_env.sh)."""
    homes = dict.fromkeys([os.environ.get("ASCEND_TOOLKIT_HOME") or _DEFAULT_TOOLKIT_HOME, _DEFAULT_TOOLKIT_HOME])
    return [Path(home) / name for home in homes for name in ("version.cfg", "compiler/version.info")]


def parse_nvidia_smi(text: str) -> tuple[list[GPUInfo], str | None]:
    """GPUs and driver version from `nvidia-smi --query-gpu=... --format=csv,noheader,nounits`."""
    gpus: list[GPUInfo] = []
    driver: str | None = None
    for line in text.strip().splitlines():
        fields = [field.strip() for field in line.split(",")]
        if len(fields) != 5 or not fields[0].isdigit():
            continue
        index, name, capability, memory_mib, driver_version = fields
        gpus.append(
            GPUInfo(
                index=int(index),
                name=name,
                vendor="nvidia",
                compute_capability=capability if re.fullmatch(r"\d+\.\d+", capability) else None,
                memory_bytes=int(float(memory_mib) * 1024**2) if _is_number(memory_mib) else None,
            )
        )
        driver = driver or driver_version
    return gpus, driver


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


_NPU_ROW = re.compile(r"^\|\s*(\d+)\s+([A-Za-z0-9][\w.-]*)\s+\|\s*(OK|Warning|Alarm|Critical|\w+)\s+\|")


def parse_npu_smi(text: str) -> list[str]:
    """NPU names, one per device, from the table `npu-smi info` prints."""
    names: list[str] = []
    for line in text.splitlines():
        row = _NPU_ROW.match(line)
        if row:
            name = row.group(2)
            names.append(name if name.lower().startswith("ascend") else f"Ascend {name}")
    return names


def parse_npu_smi_version(text: str) -> str | None:
    """The driver version from the first line of `npu-smi info`."""
    found = re.search(r"Version:\s*([\w.]+)", text)
    return found.group(1) if found else None


_CANN_VERSION_PATTERNS = (
    re.compile(r"^\s*version\s*=\s*\[?([\w.]+)", re.MULTILINE),
    re.compile(r"^\s*\w*running_version\s*=\s*\[[\w.]+:([\w.]+)\]", re.MULTILINE),
    re.compile(r"^\s*Version\s*=\s*([\w.]+)", re.MULTILINE),
)


def parse_cann_version_file(text: str) -> str | None:
    """The CANN toolkit version from version.cfg / version.info text."""
    for pattern in _CANN_VERSION_PATTERNS:
        found = pattern.search(text)
        if found:
            return found.group(1)
    return None
