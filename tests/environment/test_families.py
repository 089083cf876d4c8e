"""Hardware family of a machine and of a measured device: precedence, 'cuda' on ROCm, old evidence files."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from probes.environment.family import cpu_family, device_family, environment_family, family_evidence
from probes.environment.models import (
    AcceleratorRuntime,
    AppleSiliconInfo,
    Environment,
    GaudiInfo,
    GPUInfo,
    NeuronInfo,
    NPUInfo,
    OSInfo,
    ROCmInfo,
    TorchInfo,
    TPUInfo,
)

MACHINES = Path(__file__).parent / "machines"

NVIDIA = AcceleratorRuntime(
    gpus=[GPUInfo(index=0, name="NVIDIA H100 80GB HBM3", vendor="nvidia")], gpu_source="torch.cuda"
)
AMD = AcceleratorRuntime(gpus=[GPUInfo(index=0, name="AMD Instinct MI300X", vendor="amd")], gpu_source="torch.cuda")
DCU = AcceleratorRuntime(gpus=[GPUInfo(index=0, name="BW200", vendor="unknown")], gpu_source="torch.cuda")
ROCM_TORCH = TorchInfo(version="2.5.1+rocm6.2", build="rocm", hip_version="6.2.41133-dd7f95766")
CUDA_TORCH = TorchInfo(version="2.5.1+cu124", build="cuda", cuda_runtime="12.4")

# One listed device of each family, by field.
LISTED = {
    "nvidia-gpu": {"accelerators": NVIDIA},
    "amd-gpu": {"accelerators": AMD, "torch": ROCM_TORCH},
    "intel-gaudi": {"gaudi": GaudiInfo(devices=["HL-325L"], device_source="hl-smi")},
    "google-tpu": {"tpu": TPUInfo(devices=["TPU v5 lite"], device_source="jax.devices()")},
    "aws-neuron": {"neuron": NeuronInfo(devices=["AWS Trainium2"], device_source="neuron-ls")},
    "ascend-npu": {"npu": NPUInfo(devices=["Ascend 910B3"], device_source="npu-smi")},
    "apple-silicon": {"apple": AppleSiliconInfo(chip="Apple M4 Max", mps_built=True, mps_available=True)},
}
PRECEDENCE = list(LISTED)


@pytest.mark.parametrize("family", PRECEDENCE)
def test_each_family_alone_is_detected_with_its_source(environment_factory, family):
    environment = environment_factory(**LISTED[family])
    found, source = family_evidence(environment)
    assert found == family and environment_family(environment) == family
    expected_source = {
        "nvidia-gpu": "torch.cuda",
        "amd-gpu": "torch.cuda",
        "intel-gaudi": "hl-smi",
        "google-tpu": "jax.devices()",
        "aws-neuron": "neuron-ls",
        "ascend-npu": "npu-smi",
        "apple-silicon": "torch.backends.mps.is_available()",
    }[family]
    assert source == expected_source


@pytest.mark.parametrize(
    "first, second",
    [(a, b) for i, a in enumerate(PRECEDENCE) for b in PRECEDENCE[i + 1 :] if {a, b} != {"nvidia-gpu", "amd-gpu"}],
)
def test_listed_devices_follow_the_documented_order(environment_factory, first, second):
    environment = environment_factory(**{**LISTED[second], **LISTED[first]})
    assert environment_family(environment) == first


def test_nvidia_gpus_beat_amd_gpus_listed_beside_them(environment_factory):
    both = AcceleratorRuntime(gpus=[*NVIDIA.gpus, *AMD.gpus], gpu_source="nvidia-smi")
    assert environment_family(environment_factory(accelerators=both)) == "nvidia-gpu"


@pytest.mark.parametrize(
    "fields, family, source",
    [
        ({"torch": ROCM_TORCH}, "amd-gpu", "torch.version.hip (no device listed)"),
        ({"rocm": ROCmInfo(hip_version="6.2.41133")}, "amd-gpu", "torch.version.hip (no device listed)"),
        (
            {"gaudi": GaudiInfo(habana_frameworks_version="1.18.0.524")},
            "intel-gaudi",
            "habana_frameworks (installed, no device listed)",
        ),
        (
            {"neuron": NeuronInfo(torch_neuronx_version="2.5.1.2.4.0")},
            "aws-neuron",
            "torch_neuronx (installed, no device listed)",
        ),
    ],
)
def test_an_installed_stack_without_devices_still_names_its_family(environment_factory, fields, family, source):
    assert family_evidence(environment_factory(**fields)) == (family, source)


def test_listed_devices_beat_an_installed_stack(environment_factory):
    environment = environment_factory(
        torch=ROCM_TORCH,
        neuron=NeuronInfo(torch_neuronx_version="2.5.1"),
        tpu=TPUInfo(devices=["TPU v6 lite"], device_source="torch_xla.runtime"),
    )
    assert family_evidence(environment) == ("google-tpu", "torch_xla.runtime")


def test_tpu_runtime_without_chips_and_mps_built_but_unusable_fall_back_to_the_cpu(environment_factory):
    environment = environment_factory(
        tpu=TPUInfo(libtpu_version="0.0.8"),
        apple=AppleSiliconInfo(chip="Apple M1 Pro", mps_built=True, mps_available=False),
    )
    assert family_evidence(environment) == ("x86-cpu", "cpu.architecture")


def test_hygon_dcu_under_a_hip_build_is_not_amd(environment_factory):
    environment = environment_factory(accelerators=DCU, torch=ROCM_TORCH)
    assert environment_family(environment) == "x86-cpu"
    assert device_family("cuda", environment) is None


def test_cpu_family_from_architecture_then_os_machine(environment_factory):
    arm = environment_factory()
    arm.cpu.architecture = "aarch64"
    assert cpu_family(arm) == "arm-cpu"
    odd = environment_factory(os=OSInfo(system="Darwin", kernel="24.1.0", machine="arm64"))
    odd.cpu.architecture = "unknown"
    assert family_evidence(odd) == ("arm-cpu", "os.machine")
    odd.os.machine = "riscv64"
    assert environment_family(odd) is None


@pytest.mark.parametrize(
    "fields, device, family",
    [
        ({"accelerators": AMD, "torch": ROCM_TORCH}, "cuda", "amd-gpu"),
        ({"accelerators": AMD, "torch": ROCM_TORCH}, "cuda:3", "amd-gpu"),
        ({"torch": ROCM_TORCH}, "cuda", "amd-gpu"),  # ROCm build, GPUs not recorded
        ({"accelerators": NVIDIA, "torch": CUDA_TORCH}, "cuda", "nvidia-gpu"),
        ({}, "cuda", "nvidia-gpu"),  # an old evidence file: no torch facts, 'cuda' meant NVIDIA
        ({"accelerators": AMD, "torch": ROCM_TORCH}, "cpu", "x86-cpu"),
        ({}, "npu:0", "ascend-npu"),
        ({}, "hpu", "intel-gaudi"),
        ({}, "mps", "apple-silicon"),
        ({}, "mlu", "cambricon-mlu"),
        ({**LISTED["google-tpu"]}, "xla:0", "google-tpu"),
        ({**LISTED["aws-neuron"]}, "xla", "aws-neuron"),
        ({"neuron": NeuronInfo(torch_neuronx_version="2.5.1")}, "xla", "aws-neuron"),
        ({}, "xla", None),  # torch_xla on a CPU machine is no accelerator family
        ({}, "vulkan", None),
    ],
)
def test_device_family(environment_factory, fields, device, family):
    assert device_family(device, environment_factory(**fields)) == family


def test_old_environment_json_without_the_new_fields_still_loads():
    document = json.loads((MACHINES / "old-environment.v1.json").read_text())
    assert not {"hardware_family", "rocm", "gaudi", "tpu", "neuron", "apple"} & set(document)
    jsonschema.validate(document, Environment.model_json_schema())
    environment = Environment.model_validate(document)
    assert environment.hardware_family is None and environment.rocm is None and environment.apple is None
    assert family_evidence(environment) == ("x86-cpu", "cpu.architecture")
    assert device_family("cpu", environment) == "x86-cpu"
    round_trip = json.loads(environment.model_dump_json())
    assert round_trip["hardware_family"] is None and round_trip["peaks"] == document["peaks"]


def test_old_gpu_environment_json_keeps_its_family():
    document = json.loads((MACHINES / "old-environment.v1.json").read_text())
    document["accelerators"] = {
        "nvidia_driver": "550.54.15",
        "gpus": [{"index": 0, "name": "NVIDIA H100 80GB HBM3", "vendor": "nvidia", "compute_capability": "9.0"}],
        "gpu_source": "nvidia-smi",
    }
    environment = Environment.model_validate(document)
    assert family_evidence(environment) == ("nvidia-gpu", "nvidia-smi")
    assert device_family("cuda", environment) == "nvidia-gpu"
