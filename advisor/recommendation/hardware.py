"""Which hardware family a measurement was taken on: the device of the case, read with its environment.

A case measured on device 'cpu' is CPU evidence even on a machine with GPUs.
"""

from __future__ import annotations

from advisor.environment.models import Environment
from advisor.knowledge.models import HardwareFamily

_CPU_FAMILIES: dict[str, HardwareFamily] = {
    "x86_64": "x86-cpu",
    "amd64": "x86-cpu",
    "i686": "x86-cpu",
    "aarch64": "arm-cpu",
    "arm64": "arm-cpu",
}


def cpu_family(environment: Environment) -> HardwareFamily | None:
    """x86-cpu or arm-cpu from the CPU architecture (the OS machine name as a fallback)."""
    for name in (environment.cpu.architecture, environment.os.machine):
        family = _CPU_FAMILIES.get(name.lower())
        if family is not None:
            return family
    return None


def environment_family(environment: Environment) -> HardwareFamily | None:
    """The machine's main accelerator family: NVIDIA GPUs, then Ascend NPUs, else its CPU family."""
    if any(gpu.vendor == "nvidia" for gpu in environment.accelerators.gpus):
        return "nvidia-gpu"
    if environment.npu is not None and environment.npu.devices:
        return "ascend-npu"
    return cpu_family(environment)


def device_family(device: str, environment: Environment) -> HardwareFamily | None:
    """Family of one measured device kind ('cpu', 'cuda', 'npu'); None when outside the vocabulary."""
    kind = device.split(":")[0].lower()
    if kind == "cpu":
        return cpu_family(environment)
    if kind == "npu":
        return "ascend-npu"
    if kind == "cuda":
        # A ROCm build answers to 'cuda' too; only NVIDIA hardware is nvidia-gpu.
        rocm = environment.torch is not None and environment.torch.build == "rocm"
        nvidia = any(gpu.vendor == "nvidia" for gpu in environment.accelerators.gpus)
        return "nvidia-gpu" if nvidia or not rocm else None
    return None
