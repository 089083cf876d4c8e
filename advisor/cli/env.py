"""`advisor env`: what this machine is, and the peak throughput later results are measured against."""

from __future__ import annotations

from typing import TYPE_CHECKING

from advisor.cli.options import JsonFlag

if TYPE_CHECKING:  # imported lazily below: `advisor --help` must not pay for pydantic and rich tables
    from rich.table import Table

    from probes.environment.models import Environment


def env_command(json_output: JsonFlag = False) -> None:
    """Detect the machine: CPU and ISA, accelerators, torch/Triton/CANN builds, theoretical peaks, and which
    listed device of its family it is (`device` in the JSON, null when none matched)."""
    from advisor.cli.console import console as make_console
    from advisor.cli.output import print_json_document
    from advisor.knowledge.devices import detect_device
    from advisor.knowledge.loader import load_knowledge_base
    from probes.environment.detect import detect_environment

    environment = detect_environment()
    family = environment.hardware_family
    device = detect_device(environment, load_knowledge_base(), family) if family is not None else None
    if json_output:
        print_json_document({**environment.model_dump(mode="json"), "device": device})
        return
    console = make_console()
    console.print(machine_table(environment, device))
    console.print(software_table(environment))
    console.print(peaks_table(environment))
    for peak in environment.peaks:
        console.print(f"[dim]{peak.device}: {peak.source}[/dim]")
        for assumption in peak.assumptions:
            console.print(f"[dim]  - {assumption}[/dim]")
    if environment.unknown:
        console.print(unknown_table(environment))


def _gib(value: int | None) -> str:
    return "?" if value is None else f"{value / 1024**3:.1f} GiB"


def _text(value: object) -> str:
    return "-" if value in (None, "", []) else str(value)


def machine_table(environment: Environment, device: str | None = None) -> Table:
    """OS, CPU, ISA and accelerators, and the listed device of the family the machine matched."""
    cpu = environment.cpu
    isa_flags = [name for name, value in cpu.isa.model_dump().items() if value is True]
    from rich.table import Table

    table = Table(title="Machine", show_header=False, title_justify="left")
    table.add_row("OS", f"{environment.os.distribution or environment.os.system} (kernel {environment.os.kernel})")
    table.add_row("Python", f"{environment.python.implementation} {environment.python.version}")
    table.add_row("Host (sha256)", environment.hostname_hash)
    table.add_row("CPU", f"{_text(cpu.model_name)} ({_text(cpu.vendor)}, {cpu.architecture})")
    table.add_row(
        "Cores",
        f"{_text(cpu.physical_cores)} physical / {_text(cpu.logical_cores)} logical, {_text(cpu.sockets)} socket(s)",
    )
    table.add_row("Clock", f"{_text(cpu.clock_ghz)} GHz ({_text(cpu.clock_source)})")
    table.add_row("ISA", f"{' '.join(isa_flags) or '-'} (from {cpu.isa.source})")
    table.add_row("Memory", _gib(environment.memory_bytes))
    source = f" (from {environment.hardware_family_source})" if environment.hardware_family_source else ""
    table.add_row("Hardware family", f"{_text(environment.hardware_family)}{source}")
    table.add_row("Device", device or "no listed device matched")
    accelerators = environment.accelerators
    for gpu in accelerators.gpus:
        capability = f"sm {_text(gpu.compute_capability)}, " if gpu.vendor == "nvidia" else ""
        table.add_row(
            f"GPU {gpu.index}", f"{gpu.name}, {capability}{_gib(gpu.memory_bytes)} (via {accelerators.gpu_source})"
        )
    if not accelerators.gpus:
        table.add_row("GPU", "none detected")
    table.add_row("NVIDIA driver", _text(accelerators.nvidia_driver))
    if environment.npu is not None:
        table.add_row("NPU", ", ".join(environment.npu.devices) or "none listed")
    for label, info in (("Gaudi", environment.gaudi), ("TPU", environment.tpu), ("Neuron", environment.neuron)):
        if info is not None:
            via = f" (via {info.device_source})" if info.device_source else ""
            table.add_row(label, f"{_devices(info.devices)}{via}")
    if environment.apple is not None:
        table.add_row("Apple silicon", _text(environment.apple.chip))
    return table


def _devices(names: list[str]) -> str:
    if not names:
        return "none listed"
    return f"{len(names)} x {names[0]}" if len(set(names)) == 1 else ", ".join(names)


def software_table(environment: Environment) -> Table:
    """torch build, vendor libraries, Triton, CANN."""
    from rich.table import Table

    table = Table(title="Software", show_header=False, title_justify="left")
    torch = environment.torch
    if torch is None:
        table.add_row("torch", "not installed")
    else:
        table.add_row("torch", f"{torch.version} ({torch.build} build, {torch.num_threads} threads)")
        table.add_row("CUDA runtime / cuDNN", f"{_text(torch.cuda_runtime)} / {_text(torch.cudnn_version)}")
        if torch.hip_version:
            table.add_row("HIP", torch.hip_version)
        table.add_row(
            "oneDNN / MKL / OpenMP",
            f"{_text(torch.onednn_version) if torch.onednn_available else 'no'} / {'yes' if torch.mkl_available else 'no'} / {'yes' if torch.openmp_available else 'no'}",
        )
        table.add_row("Quantized engines", ", ".join(torch.quantized_engines) or "-")
        table.add_row("SDPA backends", ", ".join(torch.sdpa_backends) or "-")
    triton = environment.triton
    table.add_row(
        "Triton",
        "not installed" if triton is None else f"{triton.version} (GPU backend: {triton.backend or 'inactive'})",
    )
    if environment.npu is not None:
        table.add_row(
            "torch_npu / CANN", f"{_text(environment.npu.torch_npu_version)} / {_text(environment.npu.cann_version)}"
        )
    _vendor_software_rows(table, environment)
    return table


def _vendor_software_rows(table: Table, environment: Environment) -> None:
    """ROCm, Gaudi, TPU, Neuron and macOS software, for the families that are present."""
    if environment.rocm is not None:
        table.add_row("ROCm / HIP", f"{_text(environment.rocm.rocm_version)} / {_text(environment.rocm.hip_version)}")
    if environment.gaudi is not None:
        gaudi = environment.gaudi
        table.add_row(
            "habana_frameworks / Gaudi software",
            f"{_text(gaudi.habana_frameworks_version)} / {_text(gaudi.synapseai_version)}",
        )
    if environment.tpu is not None:
        tpu = environment.tpu
        table.add_row(
            "jax / torch_xla / libtpu",
            f"{_text(tpu.jax_version)} / {_text(tpu.torch_xla_version)} / {_text(tpu.libtpu_version)}",
        )
    if environment.neuron is not None:
        neuron = environment.neuron
        table.add_row(
            "torch_neuronx / neuronx-cc",
            f"{_text(neuron.torch_neuronx_version)} / {_text(neuron.neuronx_cc_version)} (instance {_text(neuron.instance_type)})",
        )
    if environment.apple is not None:
        apple = environment.apple
        mps = "available" if apple.mps_available else ("built, not available" if apple.mps_built else "not built")
        table.add_row("macOS / MPS", f"{_text(apple.macos_version)} / {mps}")


def peaks_table(environment: Environment) -> Table:
    """Theoretical dense peaks per device and dtype."""
    from rich.table import Table

    from probes.environment.models import PEAK_DTYPES

    table = Table(title="Theoretical peak (dense, TFLOP/s; int8 TOP/s)", title_justify="left")
    table.add_column("device")
    for dtype in PEAK_DTYPES:
        table.add_column(dtype, justify="right")
    table.add_column("mem GB/s", justify="right")
    for peak in environment.peaks:
        cells = [_figure(peak.tflops.get(dtype)) for dtype in PEAK_DTYPES]
        table.add_row(peak.device, *cells, _figure(peak.memory_bandwidth_gbs))
    return table


def _figure(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3g}" if value < 10 else f"{value:,.1f}"


def unknown_table(environment: Environment) -> Table:
    """Fields that could not be determined, with the reason."""
    from rich.table import Table

    table = Table(title="Not determined", title_justify="left")
    table.add_column("field")
    table.add_column("why")
    for field, reason in sorted(environment.unknown.items()):
        table.add_row(field, reason)
    return table
