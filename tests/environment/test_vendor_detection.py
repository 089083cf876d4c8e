"""AMD, Gaudi, TPU, Neuron and Apple machines detected from fixtures, with no such hardware here.

A fake machine stands in for every vendor tool (detect._run_tool), for which modules are installed
(importlib.util.find_spec), for package versions (importlib.metadata.version) and for the platform.
"""

from __future__ import annotations

import importlib.machinery
import importlib.metadata
import importlib.util
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import pytest

from advisor.cli import app
from probes.environment import accelerators, detect, frameworks, vendors
from probes.environment.detect import detect_environment

MACHINES = Path(__file__).parent / "machines"
VENDOR_MODULES = {"habana_frameworks", "jax", "libtpu", "torch_xla", "torch_neuronx", "torch_npu"}
VENDOR_DISTRIBUTIONS = {
    "habana-torch-plugin",
    "habana-frameworks",
    "jax",
    "libtpu",
    "libtpu-nightly",
    "torch-xla",
    "torch-neuronx",
    "neuronx-cc",
}


def _normal(distribution: str) -> str:
    return distribution.lower().replace("_", "-")


@dataclass
class FakeMachine:
    """Tool outputs, child-Python answers, installed modules and package versions of a pretend machine."""

    tools: dict[str, str] = field(default_factory=dict)
    python: dict[str, str] = field(default_factory=dict)  # query script -> what the child prints
    modules: set[str] = field(default_factory=set)
    versions: dict[str, str] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)

    def run(self, tool: str, args: list[str], timeout_s: float = 5.0) -> str | None:
        if tool == sys.executable:
            self.calls.append(args[-1])
            return self.python.get(args[-1])
        self.calls.append(tool)
        return self.tools.get(tool)


@pytest.fixture
def machine(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeMachine:
    fake = FakeMachine()
    real_find_spec, real_version = importlib.util.find_spec, importlib.metadata.version

    def find_spec(name: str, package: str | None = None):
        root = name.split(".")[0]
        if root in VENDOR_MODULES:
            return importlib.machinery.ModuleSpec(name, None) if root in fake.modules else None
        return real_find_spec(name, package)

    def version(distribution: str) -> str:
        key = _normal(distribution)
        if key not in VENDOR_DISTRIBUTIONS:
            return real_version(distribution)
        known = {_normal(name): value for name, value in fake.versions.items()}
        if key in known:
            return known[key]
        raise importlib.metadata.PackageNotFoundError(distribution)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    monkeypatch.setattr(importlib.metadata, "version", version)
    monkeypatch.setattr(detect, "_run_tool", fake.run)
    monkeypatch.setenv("ROCM_PATH", str(tmp_path / "no-rocm"))
    monkeypatch.setenv("ASCEND_TOOLKIT_HOME", str(tmp_path / "no-ascend"))
    monkeypatch.setattr(accelerators, "_DEFAULT_ROCM_HOME", str(tmp_path / "no-rocm"))
    return fake


def test_parse_rocm_smi_keeps_amd_gpus_and_skips_hygon_hcus():
    gpus = accelerators.parse_rocm_smi((MACHINES / "mi300x-box.rocm-smi.txt").read_text())
    assert [(gpu.index, gpu.name, gpu.vendor) for gpu in gpus] == [
        (0, "AMD Instinct MI300X", "amd"),
        (1, "AMD Instinct MI300X", "amd"),
    ]
    assert accelerators.parse_rocm_smi((MACHINES / "hygon-dcu-box.rocm-smi.txt").read_text()) == []
    foreign = "GPU[0] : Card Series: BW200\nGPU[0] : Card Vendor: Chengdu C-3000 IC Design Co., Ltd.\n"
    assert accelerators.parse_rocm_smi(foreign) == []


@pytest.mark.parametrize("text, version", [("6.2.0-66\n", "6.2.0-66"), ("\n", None), ("not a version\n", None)])
def test_parse_rocm_version_file(text, version):
    assert accelerators.parse_rocm_version_file(text) == version


def test_parse_hl_smi_and_neuron_ls():
    names, driver = accelerators.parse_hl_smi(
        "index, name, driver_version\n" + (MACHINES / "gaudi3-box.hl-smi.csv").read_text()
    )
    assert names == ["HL-325L"] * 8 and driver == "1.18.0-ee698fb"
    assert accelerators.parse_neuron_ls((MACHINES / "trn2n-48xlarge.neuron-ls.txt").read_text()) == (
        "trn2n.48xlarge",
        4,
    )
    assert accelerators.parse_neuron_ls("garbage\n") == (None, 0)


@pytest.mark.parametrize(
    "instance, chip",
    [
        ("trn2.48xlarge", "AWS Trainium2"),
        ("trn2u.48xlarge", "AWS Trainium2"),
        ("trn1n.32xlarge", "AWS Trainium"),
        ("inf2.xlarge", "AWS Inferentia2"),
        ("p5.48xlarge", None),
        (None, None),
    ],
)
def test_neuron_chip_from_instance_type(instance, chip):
    assert accelerators.neuron_chip_name(instance) == chip


def test_amd_box_with_a_cpu_torch(machine, tmp_path, monkeypatch):
    machine.tools["rocm-smi"] = (MACHINES / "mi300x-box.rocm-smi.txt").read_text()
    (tmp_path / "rocm" / ".info").mkdir(parents=True)
    (tmp_path / "rocm" / ".info" / "version").write_text((MACHINES / "mi300x-box.rocm-version.txt").read_text())
    monkeypatch.setenv("ROCM_PATH", str(tmp_path / "rocm"))
    environment = detect_environment()
    assert environment.accelerators.gpu_source == "rocm-smi" and len(environment.accelerators.gpus) == 2
    assert (environment.hardware_family, environment.hardware_family_source) == ("amd-gpu", "rocm-smi")
    assert environment.rocm.rocm_version == "6.2.0-66" and environment.rocm.rocm_version_source.endswith(
        ".info/version"
    )
    assert environment.rocm.hip_version is None and "rocm.hip_version" in environment.unknown
    assert environment.peak_for("gpu").device == "AMD Instinct MI300X"
    assert "accelerators.gpus" in environment.unknown  # this CPU torch cannot drive them


def test_rocm_torch_build_is_read_from_torch_version_hip(machine):
    rocm_torch = SimpleNamespace(version=SimpleNamespace(hip="6.2.41133-dd7f95766"))
    unknown: dict[str, str] = {}
    info = vendors.detect_rocm(rocm_torch, amd_gpus_seen=False, unknown=unknown)  # type: ignore[arg-type]
    assert info.hip_version == "6.2.41133-dd7f95766" and "rocm.rocm_version" in unknown
    cpu_torch = SimpleNamespace(version=SimpleNamespace(hip=None))
    assert vendors.detect_rocm(cpu_torch, amd_gpus_seen=False, unknown={}) is None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "hip, name, vendor",
    [
        ("6.2.41133", "AMD Instinct MI300X", "amd"),
        ("6.2.41133", "AMD Radeon PRO W7900", "amd"),
        ("5.7.31921", "BW200", "unknown"),
        (None, "NVIDIA H100 80GB HBM3", "nvidia"),
    ],
)
def test_torch_cuda_devices_get_their_vendor(hip, name, vendor):
    properties = SimpleNamespace(name=name, major=9, minor=4, total_memory=2**30)
    torch = SimpleNamespace(
        version=SimpleNamespace(hip=hip),
        cuda=SimpleNamespace(device_count=lambda: 1, get_device_properties=lambda index: properties),
    )
    assert [gpu.vendor for gpu in frameworks.cuda_gpus(torch)] == [vendor]  # type: ignore[arg-type]


def test_gaudi3_box_from_hl_smi(machine):
    machine.tools["hl-smi"] = (MACHINES / "gaudi3-box.hl-smi.csv").read_text()
    machine.modules.add("habana_frameworks")
    machine.versions["habana-torch-plugin"] = "1.18.0.524"
    environment = detect_environment()
    gaudi = environment.gaudi
    assert gaudi.devices == ["HL-325L"] * 8 and gaudi.device_source == "hl-smi"
    assert (gaudi.habana_frameworks_version, gaudi.synapseai_version) == ("1.18.0.524", "1.18.0-ee698fb")
    assert (environment.hardware_family, environment.hardware_family_source) == ("intel-gaudi", "hl-smi")
    peak = environment.peak_for("hpu")
    assert peak.device == "Intel Gaudi 3 HL-325L (OAM)" and peak.tflops["bf16"] == 1835.0
    assert vendors.HPU_QUERY not in machine.calls  # hl-smi named the cards: no device opened


def test_gaudi_box_without_hl_smi_asks_habana_frameworks_in_a_child(machine):
    machine.modules.add("habana_frameworks")
    machine.python[vendors.HPU_QUERY] = "some bridge log line\n" + json.dumps(["GAUDI3"] * 8) + "\n"
    environment = detect_environment()
    assert environment.gaudi.devices == ["GAUDI3"] * 8
    assert environment.hardware_family_source == "habana_frameworks.torch.hpu"
    assert "gaudi.synapseai_version" in environment.unknown
    assert "no table entry matches 'GAUDI3'" in environment.unknown["peaks.GAUDI3"]


def test_gaudi_stack_whose_query_fails_is_still_intel_gaudi(machine):
    machine.modules.add("habana_frameworks")
    machine.versions["habana-torch-plugin"] = "1.18.0.524"
    machine.python[vendors.HPU_QUERY] = "Traceback (most recent call last): ..."
    environment = detect_environment()
    assert environment.gaudi.devices == [] and "gaudi.devices" in environment.unknown
    assert environment.hardware_family == "intel-gaudi"
    assert "no device listed" in environment.hardware_family_source


def test_tpu_v5e_host_from_jax(machine):
    machine.modules |= {"jax", "libtpu"}
    machine.versions.update({"jax": "0.4.37", "libtpu": "0.0.7"})
    machine.python[vendors.JAX_TPU_QUERY] = json.dumps(["TPU v5 lite"] * 4)
    environment = detect_environment()
    tpu = environment.tpu
    assert tpu.devices == ["TPU v5 lite"] * 4 and tpu.device_source == "jax.devices()"
    assert (tpu.jax_version, tpu.libtpu_version, tpu.torch_xla_version) == ("0.4.37", "0.0.7", None)
    assert (environment.hardware_family, environment.hardware_family_source) == ("google-tpu", "jax.devices()")
    assert environment.peak_for("tpu").device == "Google Cloud TPU v5e"


def test_tpu_v6e_host_from_torch_xla_when_jax_is_absent(machine):
    machine.modules |= {"torch_xla", "libtpu"}
    machine.versions["torch-xla"] = "2.5.1"
    machine.python[vendors.TORCH_XLA_TPU_QUERY] = json.dumps(["TPU v6 lite"] * 8)
    environment = detect_environment()
    assert environment.tpu.device_source == "torch_xla.runtime" and environment.tpu.torch_xla_version == "2.5.1"
    assert environment.peak_for("tpu").tflops["bf16"] == 918.0
    assert vendors.JAX_TPU_QUERY not in machine.calls


def test_jax_without_libtpu_is_never_imported(machine):
    machine.modules |= {"jax", "torch_xla"}  # a CPU or GPU install of jax: no TPU runtime
    environment = detect_environment()
    assert environment.tpu is None and environment.hardware_family == "x86-cpu"
    assert not {vendors.JAX_TPU_QUERY, vendors.TORCH_XLA_TPU_QUERY} & set(machine.calls)


def test_trainium2_host_from_neuron_ls(machine):
    machine.tools["neuron-ls"] = (MACHINES / "trn2-3xlarge.neuron-ls.txt").read_text()
    machine.modules.add("torch_neuronx")
    machine.versions.update({"torch-neuronx": "2.5.1.2.6.0", "neuronx-cc": "2.18.121.0"})
    environment = detect_environment()
    neuron = environment.neuron
    assert (neuron.instance_type, neuron.devices, neuron.device_source) == (
        "trn2.3xlarge",
        ["AWS Trainium2"],
        "neuron-ls",
    )
    assert (neuron.torch_neuronx_version, neuron.neuronx_cc_version) == ("2.5.1.2.6.0", "2.18.121.0")
    assert (environment.hardware_family, environment.hardware_family_source) == ("aws-neuron", "neuron-ls")
    assert environment.peak_for("neuron").tflops == {
        "fp32": 181.0,
        "fp16": 667.0,
        "bf16": 667.0,
        "fp8": 1299.0,
        "int8": None,
    }


def test_neuron_device_on_an_unknown_instance_type_is_explained(machine):
    machine.tools["neuron-ls"] = (
        (MACHINES / "trn2-3xlarge.neuron-ls.txt").read_text().replace("trn2.3xlarge", "unknown")
    )
    environment = detect_environment()
    assert environment.neuron.devices == ["AWS Neuron device"] and "neuron.devices" in environment.unknown
    assert environment.hardware_family == "aws-neuron"


def test_apple_silicon_mac(machine, monkeypatch):
    import platform

    import torch

    monkeypatch.setattr(platform, "system", lambda: "Darwin")
    monkeypatch.setattr(platform, "machine", lambda: "arm64")
    monkeypatch.setattr(platform, "mac_ver", lambda: ("15.1", ("", "", ""), "arm64"))
    monkeypatch.setattr(torch.backends.mps, "is_built", lambda: True)
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: True)
    machine.tools["sysctl"] = "Apple M4 Max\n"
    environment = detect_environment()
    apple = environment.apple
    assert (apple.chip, apple.macos_version, apple.mps_built, apple.mps_available) == (
        "Apple M4 Max",
        "15.1",
        True,
        True,
    )
    assert environment.hardware_family == "apple-silicon"
    peak = next(peak for peak in environment.peaks if peak.device == "Apple M4 Max")
    assert peak.memory_bandwidth_gbs == 546 and peak.tflops["bf16"] is None


def test_linux_machine_has_no_apple_section(machine):
    assert detect_environment().apple is None and "sysctl" not in machine.calls


def test_garbage_from_every_tool_is_not_a_crash(machine):
    for tool in ("nvidia-smi", "npu-smi", "rocm-smi", "hl-smi", "neuron-ls"):
        machine.tools[tool] = "\x00garbage, , ,\n| x | y |\n"
    machine.modules |= {"habana_frameworks", "jax", "libtpu", "torch_neuronx"}
    machine.python = {vendors.HPU_QUERY: "{not json", vendors.JAX_TPU_QUERY: json.dumps({"not": "a list"})}
    environment = detect_environment()
    assert environment.gaudi.devices == [] and environment.tpu.devices == [] and environment.neuron.devices == []
    assert {"gaudi.devices", "tpu.devices", "neuron.devices"} <= set(environment.unknown)
    assert environment.hardware_family == "intel-gaudi"  # an installed stack, no device listed


def test_a_broken_spec_lookup_counts_as_not_installed(monkeypatch):
    def broken(name: str, package: str | None = None):
        raise ValueError(f"{name}.__spec__ is None")

    monkeypatch.setattr(importlib.util, "find_spec", broken)
    assert vendors.installed("jax") is False


def test_a_hanging_tool_is_cut_off(fake_tool):
    slow = fake_tool("slow-smi", "")
    slow.write_text("#!/bin/sh\nexec sleep 30\n")
    started = time.monotonic()
    assert detect._run_tool("slow-smi", [], timeout_s=0.5) is None
    assert time.monotonic() - started < 10


def test_env_command_prints_the_family_and_the_new_devices(machine, runner):
    machine.tools["hl-smi"] = (MACHINES / "gaudi3-box.hl-smi.csv").read_text()
    machine.modules.add("habana_frameworks")
    machine.versions["habana-torch-plugin"] = "1.18.0.524"
    result = runner.invoke(app, ["env"])
    assert result.exit_code == 0, result.output
    for text in (
        "Hardware family",
        "intel-gaudi (from hl-smi)",
        "8 x HL-325L (via hl-smi)",
        "1.18.0.524 / 1.18.0-ee698fb",
    ):
        assert text in result.stdout
    assert "gaudi3" in result.stdout  # the listed device the machine matched
    document = json.loads(runner.invoke(app, ["env", "--json"]).stdout)
    assert document["hardware_family"] == "intel-gaudi" and document["gaudi"]["devices"] == ["HL-325L"] * 8
    assert document["device"] == "gaudi3"


def test_ascend_box_names_what_listed_its_npus(machine):
    machine.tools["npu-smi"] = (MACHINES / "ascend-box.npu-smi.txt").read_text()
    environment = detect_environment()
    assert (environment.npu.device_source, environment.hardware_family) == ("npu-smi", "ascend-npu")
    assert environment.hardware_family_source == "npu-smi"
