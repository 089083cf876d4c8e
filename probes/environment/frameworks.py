"""What the installed torch, Triton and torch_npu builds can do here (each import is lazy)."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import warnings
from types import ModuleType
from typing import Any, Literal

from probes.environment.models import GPUInfo, TorchInfo, TritonInfo


def load_torch() -> ModuleType | None:
    """torch, or None when it is not installed (import costs ~1.5 s, so only detection does it)."""
    if importlib.util.find_spec("torch") is None:
        return None
    import torch

    return torch


def torch_info(torch: ModuleType) -> TorchInfo:
    """Version, build flavour, vendor libraries, quantized engines and runnable SDPA backends."""
    config = torch.__config__.show()
    onednn = re.search(r"MKL-DNN v([\d.]+)|oneDNN v([\d.]+)", config)
    cudnn = torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None
    return TorchInfo(
        version=torch.__version__,
        build=_build_flavour(torch),
        cuda_runtime=torch.version.cuda,
        cudnn_version=_cudnn_text(cudnn),
        hip_version=torch.version.hip,
        onednn_available=bool(torch.backends.mkldnn.is_available()),
        onednn_version=next((group for group in onednn.groups() if group), None) if onednn else None,
        mkl_available=bool(torch.backends.mkl.is_available()),
        openmp_available=bool(torch.backends.openmp.is_available()),
        num_threads=torch.get_num_threads(),
        quantized_engines=[str(engine) for engine in torch.backends.quantized.supported_engines if engine != "none"],
        sdpa_backends=runnable_sdpa_backends(torch),
    )


def _build_flavour(torch: ModuleType) -> Literal["cpu", "cuda", "rocm", "xpu", "unknown"]:
    if torch.version.hip:
        return "rocm"
    if torch.version.cuda:
        return "cuda"
    if getattr(torch.version, "xpu", None):
        return "xpu"
    return "cpu"


def _cudnn_text(version: int | None) -> str | None:
    # torch reports cuDNN as one integer: 8902 -> 8.9.2 (cuDNN 8), 90100 -> 9.1.0 (cuDNN 9).
    if not version:
        return None
    if version >= 90000:
        return f"{version // 10000}.{version // 100 % 100}.{version % 100}"
    return f"{version // 1000}.{version // 100 % 10}.{version % 100}"


def runnable_sdpa_backends(torch: ModuleType) -> list[str]:
    """SDPA backends that really run a tiny call, per device: 'cpu:math', 'cuda:flash_attention'..."""
    from torch.nn.attention import SDPBackend, sdpa_kernel

    devices: list[tuple[str, Any]] = [("cpu", torch.float32)]
    if torch.cuda.is_available():
        devices.append(("cuda", torch.float16))
    backends = [
        ("math", SDPBackend.MATH),
        ("flash_attention", SDPBackend.FLASH_ATTENTION),
        ("efficient_attention", SDPBackend.EFFICIENT_ATTENTION),
        ("cudnn_attention", SDPBackend.CUDNN_ATTENTION),
    ]
    runnable: list[str] = []
    for device, dtype in devices:
        query = torch.zeros(1, 1, 8, 64, device=device, dtype=dtype)
        for name, backend in backends:
            try:
                with warnings.catch_warnings(), sdpa_kernel(backend):
                    warnings.simplefilter("ignore")
                    torch.nn.functional.scaled_dot_product_attention(query, query, query)
            except RuntimeError:
                continue
            runnable.append(f"{device}:{name}")
    return runnable


def cuda_gpus(torch: ModuleType) -> list[GPUInfo]:
    """The CUDA (or ROCm) devices torch sees."""
    gpus = []
    for index in range(torch.cuda.device_count()):
        properties = torch.cuda.get_device_properties(index)
        gpus.append(
            GPUInfo(
                index=index,
                name=properties.name,
                vendor=_gpu_vendor(torch, properties.name),
                compute_capability=f"{properties.major}.{properties.minor}",
                memory_bytes=int(properties.total_memory),
            )
        )
    return gpus


def _gpu_vendor(torch: ModuleType, name: str) -> Literal["nvidia", "amd", "unknown"]:
    if not torch.version.hip:
        return "nvidia"
    # Hygon's DTK builds of torch report HIP too, for DCUs that are not AMD GPUs (hygon-dcu).
    return "amd" if re.search(r"AMD|Radeon|Instinct|^gfx\d", name) else "unknown"


def package_version(distribution: str) -> str | None:
    """Installed version of a distribution, without importing it."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def first_package_version(*distributions: str) -> str | None:
    """The version of the first of several distribution names that is installed (vendors renamed some)."""
    return next((version for name in distributions if (version := package_version(name))), None)


def triton_info(torch: ModuleType | None, gpus: list[GPUInfo]) -> TritonInfo | None:
    """Triton's version and whether a GPU backend is active (a GPU torch can drive, Triton installed)."""
    version = package_version("triton") or package_version("pytorch-triton-rocm")
    if version is None:
        return None
    active = bool(torch is not None and gpus and torch.cuda.is_available())
    backend = None
    if active and torch is not None:
        backend = "hip" if torch.version.hip else "cuda"
    return TritonInfo(version=version, gpu_backend_active=active, backend=backend)
