"""The machine a measurement was taken on, as one pydantic model (no I/O here).

Every evidence file and decision record embeds an `Environment`. Field names are part of the
public JSON contract (`advisor schema env`); add fields, never rename them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

ENVIRONMENT_SCHEMA_VERSION = 1

Dtype = Literal["fp32", "fp16", "bf16", "fp8", "int8"]
PEAK_DTYPES: tuple[Dtype, ...] = ("fp32", "fp16", "bf16", "fp8", "int8")


class _Model(BaseModel):
    # Fields are added, never renamed, within a schema_version: a file written by a newer advisor of the same
    # version reads here with its extra fields kept (and written back); a newer version is refused on load.
    model_config = ConfigDict(extra="allow")


class OSInfo(_Model):
    system: str = Field(description="platform.system(), e.g. Linux")
    kernel: str = Field(description="Kernel release, platform.release()")
    distribution: str | None = Field(None, description="PRETTY_NAME from /etc/os-release")
    machine: str = Field(description="platform.machine(), e.g. x86_64, aarch64")


class PythonInfo(_Model):
    version: str
    implementation: str


class ISAFeatures(_Model):
    """Instruction-set features that decide which CPU kernels a library can use."""

    avx2: bool = False
    fma: bool = False
    avx512f: bool = False
    avx512_vnni: bool = False
    avx512_bf16: bool = False
    avx512_fp16: bool = False
    avx_vnni: bool = False
    amx_tile: bool = False
    amx_bf16: bool = False
    amx_int8: bool = False
    amx_fp16: bool = False
    neon: bool = False
    neon_fp16: bool = Field(False, description="Arm FP16 vector arithmetic (asimdhp)")
    neon_dotprod: bool = Field(False, description="Arm int8 dot product (asimddp)")
    arm_bf16: bool = Field(False, description="Arm BF16 dot product / matrix multiply (bf16)")
    sve: bool = False
    sve2: bool = False
    sve_vector_bits: int | None = Field(None, description="SVE vector length, where readable")
    source: Literal["torch.cpu.get_capabilities", "/proc/cpuinfo", "none"] = Field(
        description="Where the flags were read"
    )


class CPUInfo(_Model):
    vendor: str | None = None
    model_name: str | None = None
    architecture: str
    physical_cores: int | None = None
    logical_cores: int | None = None
    sockets: int | None = None
    clock_ghz: float | None = Field(None, description="Clock used for peak figures")
    clock_source: str | None = Field(None, description="Where clock_ghz came from")
    isa: ISAFeatures


class TorchInfo(_Model):
    version: str
    build: Literal["cpu", "cuda", "rocm", "xpu", "unknown"]
    cuda_runtime: str | None = None
    cudnn_version: str | None = None
    hip_version: str | None = None
    onednn_available: bool = False
    onednn_version: str | None = None
    mkl_available: bool = False
    openmp_available: bool = False
    num_threads: int | None = Field(None, description="torch.get_num_threads() at capture time")
    quantized_engines: list[str] = Field(default_factory=list)
    sdpa_backends: list[str] = Field(
        default_factory=list,
        description="scaled_dot_product_attention backends this build can run on this machine",
    )


class TritonInfo(_Model):
    version: str
    gpu_backend_active: bool = Field(description="A Triton GPU backend can compile for a device here")
    backend: str | None = Field(None, description="cuda, hip or another active backend")


class GPUInfo(_Model):
    index: int
    name: str
    vendor: Literal["nvidia", "amd", "intel", "unknown"] = "unknown"
    compute_capability: str | None = Field(None, description="e.g. 9.0 for Hopper")
    memory_bytes: int | None = None


class AcceleratorRuntime(_Model):
    nvidia_driver: str | None = None
    gpus: list[GPUInfo] = Field(default_factory=list)
    gpu_source: Literal["torch.cuda", "nvidia-smi", "rocm-smi", "none"] = "none"


class NPUInfo(_Model):
    torch_npu_version: str | None = None
    cann_version: str | None = None
    cann_version_source: str | None = None
    devices: list[str] = Field(default_factory=list, description="NPU names, one per device")
    device_source: str | None = Field(None, description="What listed the devices: torch_npu or npu-smi")


class ROCmInfo(_Model):
    """AMD's ROCm stack: the HIP runtime torch was built with and the installed ROCm release."""

    hip_version: str | None = Field(None, description="torch.version.hip")
    rocm_version: str | None = Field(None, description="Installed ROCm release")
    rocm_version_source: str | None = Field(None, description="The file rocm_version was read from")


class GaudiInfo(_Model):
    """Intel Gaudi (HPU): its devices and the Intel Gaudi software (SynapseAI) release."""

    habana_frameworks_version: str | None = Field(None, description="habana-torch-plugin distribution")
    synapseai_version: str | None = Field(None, description="Gaudi software release the driver reports (hl-smi)")
    devices: list[str] = Field(default_factory=list, description="Device names, one per device")
    device_source: str | None = Field(None, description="hl-smi or habana_frameworks.torch.hpu")


class TPUInfo(_Model):
    """Google Cloud TPU chips as jax or torch_xla report them, and those frameworks' versions."""

    jax_version: str | None = None
    torch_xla_version: str | None = None
    libtpu_version: str | None = None
    devices: list[str] = Field(default_factory=list, description="device_kind per chip, e.g. 'TPU v5 lite'")
    device_source: str | None = Field(None, description="jax.devices() or torch_xla.runtime")


class NeuronInfo(_Model):
    """AWS Trainium/Inferentia: Neuron devices from neuron-ls and the Neuron SDK packages."""

    torch_neuronx_version: str | None = None
    neuronx_cc_version: str | None = Field(None, description="Neuron compiler (neuronx-cc) version")
    instance_type: str | None = Field(None, description="EC2 instance type neuron-ls reports")
    devices: list[str] = Field(default_factory=list, description="Chip names, one per Neuron device")
    device_source: str | None = Field(None, description="neuron-ls")


class AppleSiliconInfo(_Model):
    """An Apple silicon Mac: the chip, macOS and whether torch can use its GPU through MPS."""

    chip: str | None = Field(None, description="sysctl machdep.cpu.brand_string, e.g. 'Apple M2 Max'")
    macos_version: str | None = None
    mps_built: bool = Field(False, description="torch.backends.mps.is_built()")
    mps_available: bool = Field(False, description="torch.backends.mps.is_available()")


class PeakFigures(_Model):
    """Theoretical dense peak throughput of one device, in TFLOP/s (TOP/s for int8)."""

    device: str = Field(description="What the figures are for, e.g. 'cpu' or 'NVIDIA H200'")
    kind: Literal["cpu", "gpu", "npu", "hpu", "tpu", "neuron"]
    tflops: dict[Dtype, float | None] = Field(
        description="Dense peak per dtype; null where the device has no such path or it is unknown"
    )
    memory_bandwidth_gbs: float | None = Field(None, description="Peak memory bandwidth, GB/s")
    source: str = Field(description="Datasheet for table entries; the formula for computed ones")
    assumptions: list[str] = Field(default_factory=list)


class Environment(_Model):
    """Everything about the machine that decides or explains a measurement."""

    schema_version: int = ENVIRONMENT_SCHEMA_VERSION
    captured_at: datetime
    advisor_version: str
    hostname_hash: str = Field(description="sha256 of the hostname, first 16 hex digits")
    os: OSInfo
    python: PythonInfo
    cpu: CPUInfo
    memory_bytes: int | None = None
    torch: TorchInfo | None = None
    triton: TritonInfo | None = None
    accelerators: AcceleratorRuntime
    npu: NPUInfo | None = None
    hardware_family: str | None = Field(None, description="Detected hardware family, e.g. amd-gpu, x86-cpu")
    hardware_family_source: str | None = Field(None, description="What said so, e.g. torch.version.hip, hl-smi")
    rocm: ROCmInfo | None = None
    gaudi: GaudiInfo | None = None
    tpu: TPUInfo | None = None
    neuron: NeuronInfo | None = None
    apple: AppleSiliconInfo | None = None
    peaks: list[PeakFigures] = Field(default_factory=list)
    unknown: dict[str, str] = Field(
        default_factory=dict,
        description="Field path -> why it could not be determined (its value is null)",
    )

    def peak_for(self, device_kind: str) -> PeakFigures | None:
        """The first peak entry of a PeakFigures.kind ('cpu', 'gpu', 'npu', 'hpu', 'tpu', 'neuron'), or None."""
        return next((peak for peak in self.peaks if peak.kind == device_kind), None)
