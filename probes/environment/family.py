"""Which hardware family a machine, and a device measured on it, belong to (families are plain strings).

environment_family takes the first of these that the Environment shows:

1. Devices a runtime or vendor tool listed, in this order: NVIDIA GPUs, AMD GPUs, Intel Gaudi,
   Google TPU, AWS Neuron, Ascend NPUs, Apple silicon with MPS. Listed hardware is the strongest
   evidence. NVIDIA before Ascend keeps the answer older evidence files got; the other families do
   not share a machine in practice, so their order only has to be fixed.
2. A vendor stack installed while no device was listed: a ROCm torch build (amd-gpu),
   habana_frameworks or hl-smi (intel-gaudi), torch_neuronx or neuron-ls (aws-neuron). Whoever
   installs one targets that hardware (a Neuron compile host, a container without its devices
   mapped); the source says "no device listed" so that nobody mistakes it for a device.
3. The CPU family, from the CPU architecture (the OS machine name as a fallback).

A case measured on device 'cpu' is CPU evidence even on a machine with accelerators.
"""

from __future__ import annotations

from collections.abc import Callable

from probes.environment.models import Environment

_CPU_FAMILIES = {"x86_64": "x86-cpu", "amd64": "x86-cpu", "i686": "x86-cpu", "aarch64": "arm-cpu", "arm64": "arm-cpu"}

# Each check returns what said so (the evidence's source) or None.
_Check = Callable[[Environment], str | None]


def _gpus_of(vendor: str) -> _Check:
    def check(environment: Environment) -> str | None:
        runtime = environment.accelerators
        return runtime.gpu_source if any(gpu.vendor == vendor for gpu in runtime.gpus) else None

    return check


def _devices_listed(section: str, default_source: str) -> _Check:
    """A vendor section of the Environment (gaudi, tpu, neuron, npu) that lists devices: where they came from."""

    def check(environment: Environment) -> str | None:
        info = getattr(environment, section)
        return (info.device_source or default_source) if info is not None and info.devices else None

    return check


def _apple(environment: Environment) -> str | None:
    apple = environment.apple
    return "torch.backends.mps.is_available()" if apple is not None and apple.mps_available else None


def _rocm_build(environment: Environment) -> str | None:
    hip = environment.rocm.hip_version if environment.rocm is not None else None
    rocm_torch = bool(hip) or (environment.torch is not None and environment.torch.build == "rocm")
    # A HIP build driving GPUs that are not AMD's is Hygon's DTK (hygon-dcu), not amd-gpu.
    foreign = any(gpu.vendor == "unknown" for gpu in environment.accelerators.gpus)
    return "torch.version.hip (no device listed)" if rocm_torch and not foreign else None


# Detection records a Gaudi or Neuron section only when the vendor's tool ran or its torch bridge is installed.
def _gaudi_stack(environment: Environment) -> str | None:
    gaudi = environment.gaudi
    if gaudi is None:
        return None
    return "hl-smi (no device listed)" if gaudi.synapseai_version else "habana_frameworks (installed, no device listed)"


def _neuron_stack(environment: Environment) -> str | None:
    neuron = environment.neuron
    if neuron is None:
        return None
    return "neuron-ls (no device listed)" if neuron.instance_type else "torch_neuronx (installed, no device listed)"


_PRECEDENCE: tuple[tuple[str, _Check], ...] = (
    ("nvidia-gpu", _gpus_of("nvidia")),
    ("amd-gpu", _gpus_of("amd")),
    ("intel-gaudi", _devices_listed("gaudi", "hl-smi")),
    ("google-tpu", _devices_listed("tpu", "jax.devices()")),
    ("aws-neuron", _devices_listed("neuron", "neuron-ls")),
    ("ascend-npu", _devices_listed("npu", "npu-smi")),
    ("apple-silicon", _apple),
    ("amd-gpu", _rocm_build),
    ("intel-gaudi", _gaudi_stack),
    ("aws-neuron", _neuron_stack),
)


def cpu_family(environment: Environment) -> str | None:
    """x86-cpu or arm-cpu from the CPU architecture (the OS machine name as a fallback)."""
    evidence = _cpu_evidence(environment)
    return evidence[0] if evidence else None


def _cpu_evidence(environment: Environment) -> tuple[str, str] | None:
    for name, source in ((environment.cpu.architecture, "cpu.architecture"), (environment.os.machine, "os.machine")):
        family = _CPU_FAMILIES.get(name.lower())
        if family is not None:
            return family, source
    return None


def family_evidence(environment: Environment) -> tuple[str, str] | None:
    """The machine's family and what said so, by the precedence in this module's docstring."""
    for family, check in _PRECEDENCE:
        source = check(environment)
        if source:
            return family, source
    return _cpu_evidence(environment)


def environment_family(environment: Environment) -> str | None:
    """The machine's main hardware family: its accelerator's, else its CPU's; None when neither is known."""
    evidence = family_evidence(environment)
    return evidence[0] if evidence else None


def device_family(device: str, environment: Environment) -> str | None:
    """Family of one measured device kind ('cpu', 'cuda', 'npu', 'hpu', 'xla', 'mps', 'mlu'); None outside the vocabulary."""
    kind = device.split(":")[0].lower()
    if kind == "cpu":
        return cpu_family(environment)
    if kind == "cuda":
        return _cuda_family(environment)
    if kind == "xla":
        # torch_xla drives both TPUs and Neuron devices (PJRT_DEVICE=TPU or NEURON); the machine decides.
        family = environment_family(environment)
        return family if family in ("google-tpu", "aws-neuron") else None
    return {"npu": "ascend-npu", "hpu": "intel-gaudi", "mps": "apple-silicon", "mlu": "cambricon-mlu"}.get(kind)


def _cuda_family(environment: Environment) -> str | None:
    # A ROCm build answers to 'cuda' too: there it is an AMD GPU (or, under Hygon's DTK, a DCU).
    torch = environment.torch
    hip = environment.rocm is not None and environment.rocm.hip_version
    if not (hip or (torch is not None and torch.build == "rocm")):
        return "nvidia-gpu"
    gpus = environment.accelerators.gpus
    return "amd-gpu" if not gpus or any(gpu.vendor == "amd" for gpu in gpus) else None
