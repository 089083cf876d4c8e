"""Which listed device of a family a machine is: accelerators by their peak-table row, CPUs by the model string."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.knowledge.devices import detect_device
from advisor.knowledge.loader import load_knowledge_base
from probes.environment import vendors
from probes.environment.cpu import build_cpu_info, parse_cpuinfo
from probes.environment.detect import detect_environment, detect_peaks
from probes.environment.family import environment_family
from probes.environment.models import (
    AcceleratorRuntime,
    AppleSiliconInfo,
    Environment,
    GaudiInfo,
    GPUInfo,
    NPUInfo,
    TorchInfo,
)

MACHINES = Path(__file__).parent / "machines"
ROCM_TORCH = TorchInfo(version="2.5.1+rocm6.2", build="rocm", hip_version="6.2.41133-dd7f95766")


def _gpus(vendor: str, *names: str) -> AcceleratorRuntime:
    gpus = [GPUInfo(index=index, name=name, vendor=vendor) for index, name in enumerate(names)]  # type: ignore[arg-type]
    return AcceleratorRuntime(gpus=gpus, gpu_source="torch.cuda")


def _detected(environment: Environment) -> Environment:
    """The Environment with its peaks and family filled in as detect_environment does."""
    environment.peaks = detect_peaks(
        environment.cpu, environment.accelerators, environment.npu, {}, vendors.device_names(environment)
    )
    environment.hardware_family = environment_family(environment)
    return environment


@pytest.mark.parametrize(
    "fields, family, device",
    [
        ({"accelerators": _gpus("nvidia", "NVIDIA H200")}, "nvidia-gpu", "h200-sxm"),
        ({"accelerators": _gpus("nvidia", "NVIDIA H100 80GB HBM3")}, "nvidia-gpu", "h100-sxm"),
        ({"accelerators": _gpus("amd", "AMD Instinct MI300X"), "torch": ROCM_TORCH}, "amd-gpu", "mi300x"),
        ({"gaudi": GaudiInfo(devices=["HL-325L"] * 8, device_source="hl-smi")}, "intel-gaudi", "gaudi3"),
        (
            {"apple": AppleSiliconInfo(chip="Apple M4 Max", mps_built=True, mps_available=True)},
            "apple-silicon",
            "apple-m4",
        ),
    ],
)
def test_an_accelerator_is_its_familys_device(environment_factory, fields, family, device):
    environment = _detected(environment_factory(**fields))
    assert environment.hardware_family == family
    assert detect_device(environment, load_knowledge_base(), family) == device


@pytest.mark.parametrize(
    "fields, family",
    [
        ({"accelerators": _gpus("nvidia", "NVIDIA H200")}, "amd-gpu"),  # another family's device
        ({"accelerators": _gpus("nvidia", "NVIDIA H100 80GB HBM3", "NVIDIA H200")}, "nvidia-gpu"),  # two devices
        ({"accelerators": _gpus("nvidia", "NVIDIA H200 NVL")}, "nvidia-gpu"),  # a peak row no device names
        ({"accelerators": _gpus("nvidia", "NVIDIA GeForce GTX 1080")}, "nvidia-gpu"),  # no peak row at all
        (
            {"npu": NPUInfo(devices=["Ascend 910B3"], device_source="npu-smi")},
            "ascend-npu",
        ),  # 910B and 910B4 share a row
    ],
)
def test_no_device_unless_exactly_one_matches(environment_factory, fields, family):
    assert detect_device(_detected(environment_factory(**fields)), load_knowledge_base(), family) is None


@pytest.mark.parametrize(
    "model_name, device",
    [
        ("Intel(R) Xeon(R) Platinum 8480+", "xeon-4th-gen-sapphire-rapids"),
        ("Intel(R) Xeon(R) Gold 6448Y", "xeon-4th-gen-sapphire-rapids"),
        ("Intel(R) Xeon(R) 6980P", "xeon-6-granite-rapids"),
        ("AMD EPYC 9654 96-Core Processor", "epyc-9004-genoa"),
        ("AMD EPYC 9R14 96-Core Processor", "epyc-9004-genoa"),
        ("AMD EPYC 9575F 64-Core Processor", "epyc-9005-turin"),
        ("Intel(R) Xeon(R) Platinum 8280 CPU @ 2.70GHz", None),  # Cascade Lake
        ("Intel(R) Xeon(R) Platinum 8592+", None),  # Emerald Rapids: not listed
        ("Intel(R) Xeon(R) 6780E", None),  # Sierra Forest E-cores
        ("AMD EPYC 7742 64-Core Processor", None),  # Rome
        ("AMD EPYC", None),  # a VM that hides the model
    ],
)
def test_an_x86_cpu_by_its_model_string(environment_factory, model_name, device):
    environment = environment_factory()
    environment.cpu.model_name = model_name
    assert detect_device(environment, load_knowledge_base(), "x86-cpu") == device


def test_a_cpu_from_its_cpuinfo(environment_factory):
    xeon = build_cpu_info(parse_cpuinfo((MACHINES / "xeon-8480-amx.cpuinfo").read_text()), "x86_64")
    assert (
        detect_device(environment_factory(cpu=xeon), load_knowledge_base(), "x86-cpu") == "xeon-4th-gen-sapphire-rapids"
    )
    # A Neoverse V1 core is not only Graviton3's: Arm CPUs are never matched.
    graviton = build_cpu_info(parse_cpuinfo((MACHINES / "graviton3-neoverse-v1.cpuinfo").read_text()), "aarch64")
    assert detect_device(environment_factory(cpu=graviton), load_knowledge_base(), "arm-cpu") is None


def test_this_machine_is_no_device_of_another_family():
    environment = detect_environment()
    knowledge = load_knowledge_base()
    others = [platform.id for platform in knowledge.platforms if platform.kind == "accelerator"]
    for family in others:
        if family != environment.hardware_family:
            assert detect_device(environment, knowledge, family) is None, family


def test_an_unknown_family_is_none(environment_factory):
    assert detect_device(environment_factory(), load_knowledge_base(), "no-such-family") is None
