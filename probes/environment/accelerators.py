"""Accelerator facts from vendor tools' text output (parsed here; the tools run in detect.py and platforms.py)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from probes.environment.models import GPUInfo

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


# --- AMD (rocm-smi, the ROCm release file), Intel Gaudi (hl-smi), AWS Neuron (neuron-ls) ---

ROCM_SMI_ARGS = ["--showproductname"]
_DEFAULT_ROCM_HOME = "/opt/rocm"
# Hygon's DTK ships a rocm-smi too, but it labels its devices HCU[n]: only GPU[n] rows are AMD's.
_ROCM_ROW = re.compile(r"^GPU\[(\d+)\]\s*:\s*Card (Series|Vendor):\s*(.+?)\s*$", re.MULTILINE | re.IGNORECASE)


def rocm_version_files() -> list[Path]:
    """Where a ROCm install records its release: $ROCM_PATH/.info/version, then /opt/rocm's."""
    homes = dict.fromkeys([os.environ.get("ROCM_PATH") or _DEFAULT_ROCM_HOME, _DEFAULT_ROCM_HOME])
    return [Path(home) / ".info" / "version" for home in homes]


def parse_rocm_version_file(text: str) -> str | None:
    """The release from ROCm's .info/version, e.g. '6.2.0-66'."""
    first = text.strip().splitlines()[0].strip() if text.strip() else ""
    return first if re.match(r"\d+\.\d+", first) else None


def parse_rocm_smi(text: str) -> list[GPUInfo]:
    """AMD GPUs from `rocm-smi --showproductname` (one 'GPU[n] : Card Series: NAME' row per GPU)."""
    names: dict[int, str] = {}
    vendors: dict[int, str] = {}
    for row in _ROCM_ROW.finditer(text):
        target = names if row.group(2).lower() == "series" else vendors
        target[int(row.group(1))] = row.group(3)
    return [
        GPUInfo(index=index, name=name, vendor="amd")
        for index, name in sorted(names.items())
        if re.search(r"AMD|Advanced Micro Devices", vendors.get(index, "AMD"), re.IGNORECASE)
    ]


# What detect asks hl-smi for; parse_hl_smi reads exactly these columns.
HL_SMI_ARGS = ["-Q", "index,name,driver_version", "-f", "csv,noheader"]


def parse_hl_smi(text: str) -> tuple[list[str], str | None]:
    """Gaudi device names (e.g. 'HL-325L') and the driver's software release from hl-smi CSV."""
    names: list[str] = []
    driver: str | None = None
    for line in text.strip().splitlines():
        fields = [field.strip() for field in line.split(",")]
        if len(fields) >= 3 and fields[0].isdigit() and fields[1]:
            names.append(fields[1])
            driver = driver or fields[2] or None
    return names, driver


_NEURON_INSTANCE = re.compile(r"^instance-type:\s*(\S+)", re.MULTILINE)
_NEURON_ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*(\d+)\s*\|", re.MULTILINE)
# EC2 instance family -> the Neuron chip it carries (AWS Neuron docs, "Trn/Inf instances").
_NEURON_CHIPS = {
    ("inf", "1"): "AWS Inferentia",
    ("inf", "2"): "AWS Inferentia2",
    ("trn", "1"): "AWS Trainium",
    ("trn", "2"): "AWS Trainium2",
    ("trn", "3"): "AWS Trainium3",
}


def parse_neuron_ls(text: str) -> tuple[str | None, int]:
    """The instance type and the number of Neuron devices from `neuron-ls`'s table."""
    instance = _NEURON_INSTANCE.search(text)
    return (instance.group(1) if instance else None), len(_NEURON_ROW.findall(text))


def neuron_chip_name(instance_type: str | None) -> str | None:
    """'trn2.48xlarge' -> 'AWS Trainium2'; None for an instance family we do not know."""
    found = re.match(r"(trn|inf)(\d)", instance_type or "")
    return _NEURON_CHIPS.get((found.group(1), found.group(2))) if found else None
