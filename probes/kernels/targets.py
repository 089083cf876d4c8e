"""The GPU targets the Triton kernels are compiled for ahead of time, each with its per-block limits.

Importing this module imports neither torch nor triton: the probes ask it which tiles fit before
they build anything. Every limit carries its vendor source; none is derived from another chip.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    import torch

__all__ = ["TARGETS", "Footprint", "KernelTarget", "target_for_device", "target_name"]


@dataclass(frozen=True)
class KernelTarget:
    """One compilation target (an NVIDIA compute capability or an AMD gfx ISA) and what one block may use."""

    name: str  # "sm_90", "gfx942": what torch reports for the device, in the compiler's spelling
    backend: Literal["cuda", "hip"]
    arch: int | str  # triton's GPUTarget arch: 90, "gfx942"
    warp_size: int
    devices: str  # examples of the chips, for people reading a table
    shared_bytes_per_block: int  # shared memory (NVIDIA) or LDS (AMD) one block may allocate
    registers_per_thread: int  # 32-bit registers (NVIDIA) or architectural VGPRs (AMD) per thread
    registers_per_block: int | None  # NVIDIA: 32-bit registers of one block; AMD: no such limit
    accumulation_registers_per_thread: int | None  # AMD AccVGPRs (MFMA accumulators); NVIDIA: none
    tensor_memory_columns: int | None  # sm_100's tensor memory per block, in 32-bit columns
    matrix_instruction: str  # the tensor-core instruction Triton emits for 16-bit dots (aot.INSTRUCTIONS)


# NVIDIA figures: CUDA C++ Programming Guide, "Technical Specifications per Compute Capability" table
# (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#features-and-technical-specifications):
# "Maximum amount of shared memory per thread block" 163 KB for 8.0, 227 KB for 9.0 and 10.0 (KB = 1,024
# bytes; the figure is the opt-in maximum, i.e. the SM's 164/228 KB less the 1 KB CUDA reserves per block,
# as the Ampere, Hopper and Blackwell tuning guides' "Unified Shared Memory/L1/Texture Cache" sections put it);
# "Maximum number of 32-bit registers per thread" 255 and "per thread block" 64 K for all three.
_NVIDIA_REGISTERS_PER_THREAD = 255
_NVIDIA_REGISTERS_PER_BLOCK = 64 * 1024
# PTX ISA, "Tensor Memory" (tcgen05): 128 lanes x 512 columns of 32-bit cells per CTA on sm_100.
_SM100_TENSOR_MEMORY_COLUMNS = 512

TARGETS: dict[str, KernelTarget] = {
    "sm_80": KernelTarget(
        name="sm_80",
        backend="cuda",
        arch=80,
        warp_size=32,
        devices="A100, A800",
        shared_bytes_per_block=163 * 1024,
        registers_per_thread=_NVIDIA_REGISTERS_PER_THREAD,
        registers_per_block=_NVIDIA_REGISTERS_PER_BLOCK,
        accumulation_registers_per_thread=None,
        tensor_memory_columns=None,
        matrix_instruction="mma.sync",
    ),
    "sm_90": KernelTarget(
        name="sm_90",
        backend="cuda",
        arch=90,
        warp_size=32,
        devices="H100, H200, H20, GH200",
        shared_bytes_per_block=227 * 1024,
        registers_per_thread=_NVIDIA_REGISTERS_PER_THREAD,
        registers_per_block=_NVIDIA_REGISTERS_PER_BLOCK,
        accumulation_registers_per_thread=None,
        tensor_memory_columns=None,
        matrix_instruction="wgmma",
    ),
    "sm_100": KernelTarget(
        name="sm_100",
        backend="cuda",
        arch=100,
        warp_size=32,
        devices="B200, GB200",
        shared_bytes_per_block=227 * 1024,
        registers_per_thread=_NVIDIA_REGISTERS_PER_THREAD,
        registers_per_block=_NVIDIA_REGISTERS_PER_BLOCK,
        accumulation_registers_per_thread=None,
        tensor_memory_columns=_SM100_TENSOR_MEMORY_COLUMNS,
        matrix_instruction="tcgen05.mma",
    ),
    # AMD: ROCm documentation, "GPU hardware specifications" table
    # (https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html): MI300X and MI325X are CDNA3,
    # LLVM target gfx942, wavefront size 64, "LDS (KiB)" 64 per CU (a workgroup runs on one CU).
    # Registers: LLVM AMDGPU documentation, "Syntax of AMDGPU Instruction Operands"
    # (https://llvm.org/docs/AMDGPUOperandSyntax.html, republished in ROCm's llvm-project docs), which
    # covers GFX90A and GFX942: "Vector registers. There are 256 32-bit vector registers." and
    # "Accumulator registers. There are 256 32-bit accumulator registers."
    "gfx942": KernelTarget(
        name="gfx942",
        backend="hip",
        arch="gfx942",
        warp_size=64,
        devices="MI300X, MI325X",
        shared_bytes_per_block=64 * 1024,
        registers_per_thread=256,
        registers_per_block=None,
        accumulation_registers_per_thread=256,
        tensor_memory_columns=None,
        matrix_instruction="mfma",
    ),
}


@dataclass(frozen=True)
class Footprint:
    """What one compiled kernel asks of a block: the figures its limits are checked against."""

    shared_bytes: int  # dynamic (Triton's allocation) plus static shared memory / LDS
    registers: int  # per thread: 32-bit registers (NVIDIA) or architectural VGPRs (AMD)
    threads: int  # per block: num_warps x warp size
    accumulation_registers: int = 0  # AMD AccVGPRs per thread
    tensor_memory_columns: int = 0  # sm_100 tensor memory

    def breaches(self, target: KernelTarget) -> list[str]:
        """Each limit of `target` this footprint exceeds, in words; empty when it fits."""
        found: list[str] = []
        if self.shared_bytes > target.shared_bytes_per_block:
            limit = _size(target.shared_bytes_per_block)
            found.append(f"{_size(self.shared_bytes)} of shared memory > {limit} per block")
        if self.registers > target.registers_per_thread:
            found.append(f"{self.registers} registers per thread > {target.registers_per_thread}")
        block_registers = self.registers * self.threads
        if target.registers_per_block is not None and block_registers > target.registers_per_block:
            found.append(f"{block_registers} registers per block > {target.registers_per_block}")
        accumulators = target.accumulation_registers_per_thread
        if accumulators is not None and self.accumulation_registers > accumulators:
            found.append(f"{self.accumulation_registers} accumulation registers > {accumulators}")
        columns = target.tensor_memory_columns
        if self.tensor_memory_columns > (columns or 0):
            found.append(f"{self.tensor_memory_columns} tensor-memory columns > {columns or 0}")
        return found


def _size(size: int) -> str:
    return f"{size // 1024} KiB" if size % 1024 == 0 else f"{size:,} bytes"


def target_name(capability: tuple[int, int] | None, gcn_arch: str | None = None) -> str | None:
    """'sm_90' from a CUDA capability (9, 0), 'gfx942' from ROCm's 'gfx942:sramecc+:xnack-'; None if neither."""
    if gcn_arch:
        return gcn_arch.split(":", 1)[0]
    if capability is None:
        return None
    major, minor = capability
    return f"sm_{major}{minor}"


def target_for_device(device: torch.device) -> KernelTarget | None:
    """The compiled-for target of a CUDA/ROCm device, or None when its architecture is not in TARGETS."""
    import torch

    if device.type != "cuda":
        return None
    if torch.version.hip is not None:
        # ROCm's capability (9, 4 for gfx942) does not name the ISA; gcnArchName does.
        name = target_name(None, torch.cuda.get_device_properties(device).gcnArchName)
    else:
        name = target_name(torch.cuda.get_device_capability(device))
    return TARGETS.get(name) if name else None
