"""The Triton kernels compiled ahead of time for each GPU target: resources, instruction mix, compile time.

    .venv/bin/python bench/bench_kernel_targets.py [--workers N] [--target sm_90 ...]

Every (kernel, tile, dtype) the gemm and attention probes launch on a GPU, compiled on this machine
(no GPU needed) for sm_80, sm_90, sm_100 and gfx942. Per build: registers per thread (AMD:
architectural VGPRs + AccVGPRs), shared memory / LDS per block and its share of the target's limit,
spills (NVIDIA: ptxas spill stores; AMD: scratch bytes per lane), a static instruction mix, and the
compile time as a ratio against the smallest kernel (the decode tile in fp16) compiled for the same
target in the same run. --workers 1 (the default) compiles one at a time, so timings do not share CPUs;
with more, each worker pays its own one-time backend start-up inside its first compile.
"""

from __future__ import annotations

import argparse

import triton

from probes.kernels.aot import KernelBuild, compile_all
from probes.kernels.launch_configs import probe_configs, work_hint
from probes.kernels.targets import TARGETS


def _registers(build: KernelBuild) -> str:
    footprint = build.footprint
    if build.target.backend == "hip":
        return f"{footprint.registers}+{footprint.accumulation_registers}a"
    return str(footprint.registers)


def _shared(build: KernelBuild) -> str:
    share = 100 * build.footprint.shared_bytes / build.target.shared_bytes_per_block
    return f"{build.footprint.shared_bytes / 1024:6.1f} ({share:3.0f}%)"


def _mix(build: KernelBuild) -> str:
    return ", ".join(f"{name} {count}" for name, count in build.instruction_mix.items() if count)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--target", action="append", choices=sorted(TARGETS), help="repeatable; all by default")
    arguments = parser.parse_args()
    targets = [TARGETS[name] for name in arguments.target] if arguments.target else list(TARGETS.values())
    configs = probe_configs()
    # One untimed compile per target first: loading a backend's libraries (libdevice, ocml, LLVM's
    # target) is paid once per process and would otherwise land on whichever kernel comes first.
    compile_all([min(configs, key=work_hint)], targets)
    builds = compile_all(configs, targets, workers=arguments.workers)

    print(f"triton {triton.__version__}; {len(builds)} builds; workers={arguments.workers}")
    for target in targets:
        own = [build for build in builds if build.target.name == target.name]
        reference = min(own, key=lambda build: work_hint(build.config))  # the first of the smallest tiles
        print(
            f"\n{target.name} ({target.devices}): limits {target.shared_bytes_per_block // 1024} KiB shared per block, "
            f"{target.registers_per_thread} registers per thread; compile reference {reference.config.label} "
            f"= {reference.compile_s:.2f} s"
        )
        print(
            f"{'kernel':<9} {'tile':<24} {'dtype':<5} {'regs':>7} {'smem KiB (limit)':>17} {'spill B':>7} "
            f"{'compile':>8}  {'fits':<5} instruction mix"
        )
        for build in own:
            print(
                f"{build.config.kernel:<9} {build.config.name:<24} {build.config.dtype:<5} {_registers(build):>7} "
                f"{_shared(build):>17} {build.spill_bytes:>7} {build.compile_s / reference.compile_s:>7.1f}x  "
                f"{'yes' if build.fits else 'NO':<5} {_mix(build)}"
            )
        for build in own:
            if not build.fits:
                print(f"  does not fit: {build.config.label}: {'; '.join(build.breaches)}")


if __name__ == "__main__":
    main()
