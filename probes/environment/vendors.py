"""AMD ROCm, Intel Gaudi, Google TPU, AWS Neuron and Apple silicon: what is installed and what is there.

Every function returns None when the machine shows nothing of that vendor, and never raises: a
missing or broken tool or package becomes a reason in `unknown`. Queries that would open a device
(jax, torch_xla, habana_frameworks) run in a child Python with a timeout: a TPU or HPU opened by
this process would stay locked against the probes' child processes, and a hung runtime must not
hang `advisor env`.
"""

from __future__ import annotations

import importlib.util
import json
import platform
import sys
from pathlib import Path
from types import ModuleType
from typing import Protocol

from probes.environment import accelerators
from probes.environment.frameworks import first_package_version
from probes.environment.models import AppleSiliconInfo, Environment, GaudiInfo, NeuronInfo, ROCmInfo, TPUInfo

# jax and libtpu can take tens of seconds to bring a TPU slice up; vendor CLIs get detect's 5 s.
FRAMEWORK_TIMEOUT_S = 60.0

# JAX_PLATFORMS=tpu: ask for TPUs only, so that a jax[cuda] install never initialises (and
# preallocates) a GPU here.
JAX_TPU_QUERY = (
    "import json, os\nos.environ['JAX_PLATFORMS'] = 'tpu'\nimport jax\n"
    "try:\n    devices = jax.local_devices(backend='tpu')\nexcept RuntimeError:\n    devices = []\n"
    "print(json.dumps([device.device_kind for device in devices]))\n"
)
TORCH_XLA_TPU_QUERY = (
    "import json\nimport torch_xla.runtime as xr\n"
    "kinds = [str(a.get('device_kind', 'TPU')) for a in xr.global_runtime_device_attributes()]"
    " if xr.device_type() == 'TPU' else []\n"
    "print(json.dumps(kinds))\n"
)
HPU_QUERY = (
    "import json\nimport habana_frameworks.torch.hpu as hpu\n"
    "count = hpu.device_count() if hpu.is_available() else 0\n"
    "print(json.dumps([hpu.get_device_name() for _ in range(count)]))\n"
)


class ToolRunner(Protocol):
    def __call__(self, tool: str, args: list[str], timeout_s: float = ...) -> str | None: ...


def installed(module: str) -> bool:
    """Whether a module can be imported, without importing it (jax and torch_xla take seconds)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package that fails to import, or a broken spec
        return False


def python_query(run: ToolRunner, script: str) -> list[str] | None:
    """The JSON list of names a child Python prints last, or None when it failed or timed out."""
    output = run(sys.executable, ["-c", script], FRAMEWORK_TIMEOUT_S)
    lines = [line for line in (output or "").splitlines() if line.strip()]
    try:
        names = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        return None
    return [str(name) for name in names] if isinstance(names, list) else None


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:  # unreadable counts as absent; the caller records why the value is null
        return ""


def detect_rocm(torch: ModuleType | None, amd_gpus_seen: bool, unknown: dict[str, str]) -> ROCmInfo | None:
    """The HIP runtime of a ROCm torch build and the installed ROCm release (.info/version)."""
    hip = getattr(getattr(torch, "version", None), "hip", None) if torch is not None else None
    version_file = next((path for path in accelerators.rocm_version_files() if path.is_file()), None)
    if not (hip or version_file or amd_gpus_seen):
        return None
    info = ROCmInfo(hip_version=str(hip) if hip else None)
    if version_file is not None:
        info.rocm_version = accelerators.parse_rocm_version_file(_read(version_file))
        info.rocm_version_source = str(version_file) if info.rocm_version else None
    if info.rocm_version is None:
        unknown["rocm.rocm_version"] = "no readable .info/version under $ROCM_PATH or /opt/rocm"
    if info.hip_version is None:
        unknown["rocm.hip_version"] = "the installed torch is not a ROCm build"
    return info


def detect_gaudi(run: ToolRunner, unknown: dict[str, str]) -> GaudiInfo | None:
    """Gaudi devices from hl-smi (the card model, e.g. HL-325L), else from habana_frameworks."""
    smi_output = run("hl-smi", accelerators.HL_SMI_ARGS)
    has_bridge = installed("habana_frameworks")
    if not (smi_output or has_bridge):
        return None
    names, driver = accelerators.parse_hl_smi(smi_output or "")
    info = GaudiInfo(
        habana_frameworks_version=first_package_version("habana-torch-plugin", "habana_frameworks"),
        synapseai_version=driver,
        devices=names,
        device_source="hl-smi" if names else None,
    )
    if not names and has_bridge:
        # torch reports only the generation ('GAUDI3'), not the card: peaks stay unmatched then.
        info.devices = python_query(run, HPU_QUERY) or []
        info.device_source = "habana_frameworks.torch.hpu" if info.devices else None
    if not info.devices:
        unknown["gaudi.devices"] = "neither hl-smi nor habana_frameworks listed a Gaudi device"
    if info.synapseai_version is None:
        unknown["gaudi.synapseai_version"] = "hl-smi not found or reported no driver version"
    return info


def detect_tpu(run: ToolRunner, unknown: dict[str, str]) -> TPUInfo | None:
    """TPU chips as jax or torch_xla report them; only where libtpu (the TPU runtime) is installed."""
    if not installed("libtpu"):
        return None
    info = TPUInfo(
        jax_version=first_package_version("jax"),
        torch_xla_version=first_package_version("torch-xla", "torch_xla"),
        libtpu_version=first_package_version("libtpu", "libtpu-nightly"),
    )
    for module, script, source in (
        ("jax", JAX_TPU_QUERY, "jax.devices()"),
        ("torch_xla", TORCH_XLA_TPU_QUERY, "torch_xla.runtime"),
    ):
        if not info.devices and installed(module):
            info.devices = python_query(run, script) or []
            info.device_source = source if info.devices else None
    if not info.devices:
        unknown["tpu.devices"] = "libtpu is installed but neither jax nor torch_xla listed a TPU"
    return info


def detect_neuron(run: ToolRunner, unknown: dict[str, str]) -> NeuronInfo | None:
    """Neuron devices from neuron-ls (named by the instance type) and the Neuron SDK's package versions."""
    listing = run("neuron-ls", [])
    has_torch_neuronx = installed("torch_neuronx")
    if not (listing or has_torch_neuronx):
        return None
    instance_type, count = accelerators.parse_neuron_ls(listing or "")
    chip = accelerators.neuron_chip_name(instance_type)
    info = NeuronInfo(
        torch_neuronx_version=first_package_version("torch-neuronx", "torch_neuronx"),
        neuronx_cc_version=first_package_version("neuronx-cc", "neuronx_cc"),
        instance_type=instance_type,
        devices=[chip or "AWS Neuron device"] * count,
        device_source="neuron-ls" if count else None,
    )
    if not count:
        unknown["neuron.devices"] = "neuron-ls not found or listed no Neuron device"
    elif chip is None:
        unknown["neuron.devices"] = f"instance type {instance_type!r} does not name a known Neuron chip"
    return info


def detect_apple(torch: ModuleType | None, run: ToolRunner, unknown: dict[str, str]) -> AppleSiliconInfo | None:
    """An Apple silicon Mac: chip name, macOS version and whether torch's MPS backend is usable."""
    if platform.system() != "Darwin" or platform.machine() != "arm64":
        return None
    chip = (run("sysctl", ["-n", "machdep.cpu.brand_string"]) or "").strip() or None
    info = AppleSiliconInfo(chip=chip, macos_version=platform.mac_ver()[0] or None)
    mps = getattr(getattr(torch, "backends", None), "mps", None)
    try:
        info.mps_built = bool(mps is not None and mps.is_built())
        info.mps_available = bool(mps is not None and mps.is_available())
    except Exception as error:  # an MPS query that fails must not stop detection
        unknown["apple.mps"] = f"torch.backends.mps failed: {type(error).__name__}: {error}"
    if chip is None:
        unknown["apple.chip"] = "sysctl machdep.cpu.brand_string gave nothing"
    return info


def device_names(environment: Environment) -> list[str]:
    """The Gaudi, TPU, Neuron and Apple device names that the peak table is asked about."""
    names = [
        *(environment.gaudi.devices if environment.gaudi else []),
        *(environment.tpu.devices if environment.tpu else []),
    ]
    names += environment.neuron.devices if environment.neuron else []
    return names + ([environment.apple.chip] if environment.apple and environment.apple.chip else [])
