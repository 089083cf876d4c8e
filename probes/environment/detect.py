"""detect_environment(): read this machine into an Environment; never raises for missing facts."""

from __future__ import annotations

import hashlib
import importlib.util
import platform
import shutil
import socket
import subprocess
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from types import ModuleType

import psutil

from probes._version import __version__
from probes.environment import accelerators, cpu, family, frameworks, peaks, vendors
from probes.environment.models import (
    AcceleratorRuntime,
    CPUInfo,
    Environment,
    ISAFeatures,
    NPUInfo,
    OSInfo,
    PeakFigures,
    PythonInfo,
)

_TOOL_TIMEOUT_S = 5.0


def detect_environment() -> Environment:
    """Capture this machine; undeterminable fields are null with a reason in `unknown`."""
    unknown: dict[str, str] = {}
    torch = frameworks.load_torch()
    if torch is None:
        unknown["torch"] = "torch is not installed"
    cpu_info = detect_cpu(torch)
    runtime = detect_accelerators(torch, unknown)
    npu = detect_npu(unknown)
    environment = Environment(
        captured_at=datetime.now(timezone.utc),
        advisor_version=__version__,
        hostname_hash=hashlib.sha256(socket.gethostname().encode()).hexdigest()[:16],
        os=detect_os(),
        python=PythonInfo(version=platform.python_version(), implementation=platform.python_implementation()),
        cpu=cpu_info,
        memory_bytes=psutil.virtual_memory().total,
        torch=frameworks.torch_info(torch) if torch is not None else None,
        triton=frameworks.triton_info(torch, runtime.gpus),
        accelerators=runtime,
        npu=npu,
        rocm=vendors.detect_rocm(torch, any(gpu.vendor == "amd" for gpu in runtime.gpus), unknown),
        # _run_tool is looked up at each call, so that a test can stand in for every vendor tool.
        gaudi=vendors.detect_gaudi(_run_tool, unknown),
        tpu=vendors.detect_tpu(_run_tool, unknown),
        neuron=vendors.detect_neuron(_run_tool, unknown),
        apple=vendors.detect_apple(torch, _run_tool, unknown),
        unknown=unknown,
    )
    unknown = environment.unknown  # pydantic copied the dict: later reasons must go into the model's own
    environment.peaks = detect_peaks(cpu_info, runtime, npu, unknown, vendors.device_names(environment))
    environment.hardware_family, environment.hardware_family_source = family.family_evidence(environment) or (
        None,
        None,
    )
    if environment.hardware_family is None:
        unknown["hardware_family"] = (
            f"no accelerator listed and CPU architecture {cpu_info.architecture!r} is neither x86 nor Arm"
        )
    if environment.triton is None:
        unknown["triton"] = "triton is not installed (Linux x86-64 only)"
    _note_cpu_unknowns(cpu_info, unknown)
    return environment


def undetected_environment(reason: str) -> Environment:
    """What is known without asking torch or any tool, for evidence whose detection was cut short; `unknown` says why."""
    return Environment(
        captured_at=datetime.now(timezone.utc),
        advisor_version=__version__,
        hostname_hash=hashlib.sha256(socket.gethostname().encode()).hexdigest()[:16],
        os=detect_os(),
        python=PythonInfo(version=platform.python_version(), implementation=platform.python_implementation()),
        cpu=CPUInfo(architecture=platform.machine(), isa=ISAFeatures(source="none")),
        accelerators=AcceleratorRuntime(),
        unknown={"environment": reason},
    )


def detect_os() -> OSInfo:
    """Operating system, kernel and distribution."""
    return OSInfo(
        system=platform.system(),
        kernel=platform.release(),
        distribution=_os_release_name(Path("/etc/os-release")),
        machine=platform.machine(),
    )


def _os_release_name(path: Path) -> str | None:
    try:
        text = path.read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("PRETTY_NAME="):
            return line.partition("=")[2].strip().strip('"')
    return None


def detect_cpu(torch: ModuleType | None) -> CPUInfo:
    """CPU model, cores, clock and ISA features."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        text = ""
    facts = cpu.parse_cpuinfo(text)
    capabilities = None
    if torch is not None and hasattr(torch.cpu, "get_capabilities"):
        capabilities = torch.cpu.get_capabilities()
    return cpu.build_cpu_info(
        facts,
        platform.machine(),
        torch_capabilities=capabilities,
        max_freq_khz=cpu.read_max_freq_khz(),
        physical_cores=psutil.cpu_count(logical=False),
        sve_vector_bits=cpu.read_sve_vector_bits(),
    )


def _note_cpu_unknowns(cpu_info: CPUInfo, unknown: dict[str, str]) -> None:
    if cpu_info.clock_ghz is None:
        unknown["cpu.clock_ghz"] = "no cpufreq, no GHz rating in the model name, no cpu MHz"
    if cpu_info.physical_cores is None:
        unknown["cpu.physical_cores"] = "neither psutil nor /proc/cpuinfo reports physical cores"


def detect_accelerators(torch: ModuleType | None, unknown: dict[str, str]) -> AcceleratorRuntime:
    """GPUs from torch.cuda, else from nvidia-smi or rocm-smi (a CPU-only torch on a GPU machine)."""
    smi_output = _run_tool("nvidia-smi", accelerators.NVIDIA_SMI_ARGS)
    smi_gpus, driver = accelerators.parse_nvidia_smi(smi_output) if smi_output else ([], None)
    if driver is None:
        unknown["accelerators.nvidia_driver"] = "nvidia-smi not found or reported no GPU"
    if torch is not None and torch.cuda.is_available():
        return AcceleratorRuntime(nvidia_driver=driver, gpus=frameworks.cuda_gpus(torch), gpu_source="torch.cuda")
    if smi_gpus:
        unknown["accelerators.gpus"] = "GPUs seen by nvidia-smi, but this torch build cannot use them"
        return AcceleratorRuntime(nvidia_driver=driver, gpus=smi_gpus, gpu_source="nvidia-smi")
    amd_gpus = accelerators.parse_rocm_smi(_run_tool("rocm-smi", accelerators.ROCM_SMI_ARGS) or "")
    if amd_gpus:
        unknown["accelerators.gpus"] = "GPUs seen by rocm-smi, but this torch build cannot use them"
        return AcceleratorRuntime(nvidia_driver=driver, gpus=amd_gpus, gpu_source="rocm-smi")
    return AcceleratorRuntime(nvidia_driver=driver)


def detect_npu(unknown: dict[str, str]) -> NPUInfo | None:
    """Ascend NPUs: torch_npu and CANN when importable, with npu-smi and version files as fallback."""
    has_torch_npu = importlib.util.find_spec("torch_npu") is not None
    smi_output = _run_tool("npu-smi", ["info"])
    cann_file = next((path for path in accelerators.cann_version_files() if path.is_file()), None)
    if not (has_torch_npu or smi_output or cann_file):
        return None
    info = NPUInfo(devices=accelerators.parse_npu_smi(smi_output) if smi_output else [])
    info.device_source = "npu-smi" if info.devices else None
    if has_torch_npu:
        info.torch_npu_version = frameworks.first_package_version("torch_npu", "torch-npu")
        info.cann_version, names = _torch_npu_facts(unknown)
        if names:
            info.devices, info.device_source = names, "torch_npu"
        info.cann_version_source = "torch_npu.utils.get_cann_version" if info.cann_version else None
    if info.cann_version is None and cann_file is not None:
        info.cann_version = accelerators.parse_cann_version_file(cann_file.read_text(errors="replace"))
        info.cann_version_source = str(cann_file) if info.cann_version else None
    if info.cann_version is None:
        unknown["npu.cann_version"] = "no torch_npu CANN query and no readable version.cfg"
    return info


def _torch_npu_facts(unknown: dict[str, str]) -> tuple[str | None, list[str]]:
    """CANN version and NPU names from torch_npu; (None, []) when it fails."""
    try:
        import torch_npu

        version = torch_npu.utils.get_cann_version()
        count = torch_npu.npu.device_count()
        names = [torch_npu.npu.get_device_name(index) for index in range(count)]
        return (str(version) if version else None), names
    except Exception as error:  # a broken CANN install must not stop detection
        unknown["npu.torch_npu"] = f"torch_npu failed: {type(error).__name__}: {error}"
        return None, []


def detect_peaks(
    cpu_info: CPUInfo,
    runtime: AcceleratorRuntime,
    npu: NPUInfo | None,
    unknown: dict[str, str],
    other_devices: Sequence[str] = (),
) -> list[PeakFigures]:
    """Peak figures for the CPU and each distinct accelerator model present (other_devices: Gaudi, TPU, Neuron, Apple)."""
    figures: list[PeakFigures] = []
    cpu_figures = peaks.cpu_peak(cpu_info)
    if cpu_figures is None:
        unknown["peaks.cpu"] = "needs physical cores, a clock and a known SIMD width"
    else:
        figures.append(cpu_figures)
    names = list(dict.fromkeys([gpu.name for gpu in runtime.gpus] + (npu.devices if npu else []) + list(other_devices)))
    table = peaks.accelerator_table()
    for name in names:
        entry = peaks.accelerator_peak(name, table)
        if entry is None:
            unknown[f"peaks.{name}"] = f"no table entry matches {name!r}; add one with {peaks.PEAKS_FILE_VARIABLE}"
        else:
            figures.append(entry)
    return figures


def _run_tool(tool: str, args: list[str], timeout_s: float = _TOOL_TIMEOUT_S) -> str | None:
    """A vendor tool's stdout, or None when it is absent, fails or hangs."""
    executable = shutil.which(tool)
    if executable is None:
        return None
    try:
        done = subprocess.run([executable, *args], capture_output=True, text=True, timeout=timeout_s, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None
