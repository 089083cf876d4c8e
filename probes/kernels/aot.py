"""Ahead-of-time compilation of this project's Triton kernels for real GPU targets, on any machine.

triton.compile takes a target (GPUTarget) instead of asking a driver, and triton's wheel ships
ptxas and the AMD linker, so a CPU-only machine builds the same cubin / hsaco a GPU's JIT would.
Each probe configuration (launch_configs.probe_configs()) is compiled for every target in targets.TARGETS,
and the binary's resource use is read back: shared memory, registers, spills, tensor memory and a
static instruction mix. footprints.py keeps the figures the probes check tiles against at run time.
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import re
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from triton.runtime.jit import JITFunction

from probes.kernels.launch_configs import KernelConfig, KernelName, Pointer, probe_configs, work_hint
from probes.kernels.targets import TARGETS, Footprint, KernelTarget

__all__ = [
    "INSTRUCTIONS",
    "KernelBuild",
    "compile_all",
    "compile_config",
    "footprint_table_source",
    "instruction_mix",
    "write_footprints",
]

# Static counts in the assembly text (not executed counts): each a regex over one line of PTX or AMDGCN.
INSTRUCTIONS: dict[str, dict[str, str]] = {
    "cuda": {
        "mma.sync": r"\bmma\.sync\.aligned\b",  # warp-level MMA: Ampere's tensor-core path, still run by later chips
        "wgmma": r"\bwgmma\.mma_async\b",  # Hopper warpgroup MMA
        "tcgen05.mma": r"\btcgen05\.mma\b",  # Blackwell 5th-generation tensor-core MMA
        "fma.f32": r"\bfma\.rn(\.ftz)?\.f32\b",  # scalar fp32 FMA (the CUDA-core path)
        "cp.async": r"\bcp\.async\.c[ag]\.shared\b",  # Ampere global->shared async copy
        "tma": r"\bcp\.async\.bulk\.tensor\b",  # Hopper/Blackwell tensor memory accelerator copy
    },
    "hip": {
        "mfma": r"^\s*v_mfma_",  # CDNA matrix FMA
        "fma.f32": r"^\s*v_(fma|fmac|pk_fma)_f32",  # vector fp32 FMA
        "lds": r"^\s*ds_(read|write|load|store)",  # LDS (shared memory) traffic
        "global_load": r"^\s*(global|buffer)_load",
    },
}


@dataclass(frozen=True)
class KernelBuild:
    """One config compiled for one target: its footprint, spills, instruction mix and compile time."""

    config: KernelConfig
    target: KernelTarget
    footprint: Footprint
    spill_bytes: int  # NVIDIA: ptxas's spill stores; AMD: scratch (private segment) bytes per lane
    instruction_mix: dict[str, int]
    compile_s: float
    binary_bytes: int
    breaches: list[str] = field(default_factory=list)  # Footprint.breaches: empty when it fits

    @property
    def fits(self) -> bool:
        return not self.breaches


def _kernel(kernel: KernelName) -> tuple[Callable[..., object], dict[str, object]]:
    """The kernel's function and the constants every launch passes (the @jit helpers it is handed)."""
    if kernel == "matmul":
        from probes.kernels.triton_matmul import _matmul_kernel

        return _matmul_kernel, {}
    from probes.kernels.triton_attention import _attention_fwd_kernel

    # What triton_attention passes through probes.kernels.jit_helper when the JIT compiles.
    return _attention_fwd_kernel, {"ROW_MAX": tl.max, "ROW_SUM": tl.sum}


def _specialise(value: object) -> tuple[str, bool]:
    """(type, divisible by 16) as triton 3.9's JIT specialises a launch argument; type 'constexpr' for 1.

    Integers equal to 1 become compile-time constants; other integers are i32 (i64 past its range),
    flagged when divisible by 16; floats are fp32; tensors are pointers, 16-byte aligned.
    """
    if isinstance(value, Pointer):
        return f"*{value.dtype}", True
    if isinstance(value, bool):
        return "i1", False
    if isinstance(value, int):
        if value == 1:
            return "constexpr", False
        kind = "i32" if -(2**31) <= value < 2**31 else "i64"
        return kind, value % 16 == 0
    if isinstance(value, float):
        return "fp32", False
    raise TypeError(f"no specialisation rule for {value!r}")


def _source(config: KernelConfig) -> ASTSource:
    function, helpers = _kernel(config.kernel)
    fn = JITFunction(function)
    arguments = dict(config.arguments)
    constants: dict[str, object] = {**dict(config.constants), **helpers}
    signature: dict[str, str] = {}
    attrs: dict[tuple[int, ...], list[list[object]]] = {}
    for index, name in enumerate(fn.arg_names):
        if name in constants:
            signature[name] = "constexpr"
            continue
        kind, divisible = _specialise(arguments[name])
        signature[name] = kind
        if kind == "constexpr":
            constants[name] = arguments[name]
        elif divisible:
            attrs[(index,)] = [["tt.divisibility", 16]]
    return ASTSource(fn, signature, constants, attrs)


# ptxas -v (triton prints its log when knobs.nvidia.dump_ptxas_log is set).
_PTXAS_REGISTERS = re.compile(r"Used (\d+) registers")
_PTXAS_SHARED = re.compile(r"(\d+) bytes smem")
_PTXAS_SPILLS = re.compile(r"(\d+) bytes spill stores")
# AMDGPU code object metadata and the assembler's resource comments.
_AMD_FIELDS = {
    "vgprs": re.compile(r"^; NumVgprs: (\d+)", re.MULTILINE),
    "agprs": re.compile(r"^; NumAgprs: (\d+)", re.MULTILINE),
    "scratch": re.compile(r"^; ScratchSize: (\d+)", re.MULTILINE),
    "lds": re.compile(r"^\s*\.group_segment_fixed_size:\s+(\d+)", re.MULTILINE),
}


def instruction_mix(assembly: str, backend: str) -> dict[str, int]:
    """Static count of each INSTRUCTIONS[backend] entry in PTX or AMDGCN text."""
    patterns = INSTRUCTIONS[backend]
    return {name: len(re.findall(pattern, assembly, flags=re.MULTILINE)) for name, pattern in patterns.items()}


def _one(pattern: re.Pattern[str], text: str, what: str) -> int:
    found = pattern.findall(text)
    if len(found) != 1:
        raise RuntimeError(f"expected one '{what}' in the compiler's report, found {len(found)}: a new format?")
    return int(found[0])


def compile_config(config: KernelConfig, target: KernelTarget) -> KernelBuild:
    """Compile `config` for `target` from scratch (private cache) and read back its resource use."""
    source = _source(config)
    options = {
        "num_warps": config.num_warps,
        "num_stages": config.num_stages,
        # What the JIT uses when the launch leaves it unset (default on, TRITON_DEFAULT_FP_FUSION),
        # passed explicitly so triton 3.9 does not warn about the default changing in 3.10.
        "enable_fp_fusion": triton.knobs.language.default_fp_fusion,
    }
    log = io.StringIO()
    with tempfile.TemporaryDirectory() as cache_dir, triton.knobs.cache.scope(), triton.knobs.nvidia.scope():
        triton.knobs.cache.dir = cache_dir  # a cold compile every time: honest timings, no shared cache
        triton.knobs.nvidia.dump_ptxas_log = True  # ptxas -v: registers, static shared memory, spills
        with contextlib.redirect_stdout(log):
            started = time.perf_counter()
            gpu = GPUTarget(target.backend, target.arch, target.warp_size)
            kernel = triton.compile(source, target=gpu, options=options)
            compile_s = time.perf_counter() - started
    metadata = kernel.metadata
    threads = config.num_warps * target.warp_size
    if target.backend == "cuda":
        report = log.getvalue()
        footprint = Footprint(
            # ptxas names static shared memory only when there is some (e.g. the barriers of sm_100 pipelines).
            shared_bytes=metadata.shared + sum(int(size) for size in _PTXAS_SHARED.findall(report)),
            registers=_one(_PTXAS_REGISTERS, report, "Used N registers"),
            threads=threads,
            tensor_memory_columns=getattr(metadata, "tmem_size", None) or 0,
        )
        spill_bytes = _one(_PTXAS_SPILLS, report, "bytes spill stores")
        assembly, binary = kernel.asm["ptx"], kernel.asm["cubin"]
    else:
        assembly, binary = kernel.asm["amdgcn"], kernel.asm["hsaco"]
        figures = {name: _one(pattern, assembly, name) for name, pattern in _AMD_FIELDS.items()}
        footprint = Footprint(
            shared_bytes=metadata.shared + figures["lds"],
            registers=figures["vgprs"],
            threads=threads,
            accumulation_registers=figures["agprs"],
        )
        spill_bytes = figures["scratch"]
    return KernelBuild(
        config=config,
        target=target,
        footprint=footprint,
        spill_bytes=spill_bytes,
        instruction_mix=instruction_mix(assembly, target.backend),
        compile_s=compile_s,
        binary_bytes=len(binary),
        breaches=footprint.breaches(target),
    )


def _compile_named(config: KernelConfig, target_name: str) -> KernelBuild:
    return compile_config(config, TARGETS[target_name])


def compile_all(
    configs: Iterable[KernelConfig] | None = None,
    targets: Iterable[KernelTarget] | None = None,
    *,
    workers: int = 1,
) -> list[KernelBuild]:
    """Every config compiled for every target (probe_configs() x TARGETS by default), in that order.

    workers > 1 compiles in that many fresh processes: each compile is single-threaded (ptxas, LLVM),
    and triton's log capture (stdout) and knobs are process-wide, so threads would not do.
    """
    pairs = [
        (config, target)
        for config in (probe_configs() if configs is None else configs)
        for target in (TARGETS.values() if targets is None else targets)
    ]
    if workers <= 1:
        return [compile_config(config, target) for config, target in pairs]
    # Largest tiles first, so that no worker is left with a slow compile while the others idle.
    order = sorted(range(len(pairs)), key=lambda index: -work_hint(pairs[index][0]))
    # spawn, not fork: the parent may hold torch's and triton's threads and locks.
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        done = pool.map(_compile_named, [pairs[i][0] for i in order], [pairs[i][1].name for i in order])
        by_index = dict(zip(order, done))
    return [by_index[index] for index in range(len(pairs))]


def footprint_table_source(builds: Iterable[KernelBuild]) -> str:
    """The FOOTPRINTS entries of footprints.py for these builds, as Python source lines (zero fields left out)."""
    lines = []
    keyed = {(b.config.kernel, b.config.name, b.config.dtype, b.target.name): b.footprint for b in builds}
    for key, f in sorted(keyed.items()):
        fields = [f"shared_bytes={f.shared_bytes}", f"registers={f.registers}", f"threads={f.threads}"]
        fields += [f"accumulation_registers={f.accumulation_registers}"] if f.accumulation_registers else []
        fields += [f"tensor_memory_columns={f.tensor_memory_columns}"] if f.tensor_memory_columns else []
        quoted = ", ".join(f'"{part}"' for part in key)
        lines.append(f"    ({quoted}): Footprint({', '.join(fields)}),")
    return "\n".join(lines)


_TABLE = re.compile(
    r"(FOOTPRINTS: dict\[FootprintKey, Footprint\] = \{\n).*?(\}  # end of generated table\n)", re.DOTALL
)


def write_footprints(path: Path | None = None, builds: Iterable[KernelBuild] | None = None) -> Path:
    """Rewrite footprints.py's table from fresh compiles (all probe configs x TARGETS unless given)."""
    path = path or Path(__file__).with_name("footprints.py")
    table = footprint_table_source(compile_all() if builds is None else builds)
    text = _TABLE.sub(lambda match: match.group(1) + table + "\n" + match.group(2), path.read_text(), count=1)
    text = re.sub(r'TRITON_VERSION = "[^"]*"', f'TRITON_VERSION = "{triton.__version__}"', text, count=1)
    path.write_text(text)
    return path
