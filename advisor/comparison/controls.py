"""The control-variable check: every variable that differs between two runs.

When more than one differs, a change in timing cannot be attributed to any one of them.
"""

from __future__ import annotations

from collections.abc import Callable

from advisor.comparison.models import ControlDifference
from probes.models import Evidence, HarnessSettings

ControlReader = Callable[[Evidence], str | None]


def _joined(values: list[str]) -> str | None:
    return ", ".join(values) if values else None


def _torch(field: str) -> ControlReader:
    def read(evidence: Evidence) -> str | None:
        torch = evidence.environment.torch
        value = getattr(torch, field) if torch is not None else None
        return None if value is None else str(value)

    return read


def _npu(field: str) -> ControlReader:
    def read(evidence: Evidence) -> str | None:
        npu = evidence.environment.npu
        value = getattr(npu, field) if npu is not None else None
        return _joined(value) if isinstance(value, list) else value

    return read


def _triton_version(evidence: Evidence) -> str | None:
    triton = evidence.environment.triton
    return triton.version if triton is not None else None


def _harness(field: str) -> ControlReader:
    return lambda evidence: str(getattr(evidence.config.settings, field))


def _host_busy(evidence: Evidence) -> str | None:
    contention = evidence.host_contention
    return None if contention is None else ("busy" if contention.busy else "quiet")


# variable name -> how to read it from one run; the order is the order of the report.
CONTROL_VARIABLES: dict[str, ControlReader] = {
    "cpu": lambda evidence: evidence.environment.cpu.model_name,
    "gpus": lambda evidence: _joined([gpu.name for gpu in evidence.environment.accelerators.gpus]),
    "npus": _npu("devices"),
    "nvidia driver": lambda evidence: evidence.environment.accelerators.nvidia_driver,
    "torch": _torch("version"),
    "torch build": _torch("build"),
    "cuda": _torch("cuda_runtime"),
    "cudnn": _torch("cudnn_version"),
    "torch_npu": _npu("torch_npu_version"),
    "cann": _npu("cann_version"),
    "triton": _triton_version,
    "device": lambda evidence: evidence.config.device,
    "threads": _torch("num_threads"),
    "dtypes": lambda evidence: _joined(sorted({case.key.dtype for case in evidence.cases})),
    "probes": lambda evidence: _joined(sorted(evidence.config.probes)),
    "budget": lambda evidence: f"{evidence.config.budget_s:g} s",
    "host load": _host_busy,
}
# One variable per harness knob, so a report names the knob that changed rather than the whole block.
CONTROL_VARIABLES.update({f"harness {name}": _harness(name) for name in HarnessSettings.model_fields})


def control_differences(a: Evidence, b: Evidence) -> list[ControlDifference]:
    """Each control variable whose value differs between run A and run B."""
    differences = []
    for variable, read in CONTROL_VARIABLES.items():
        value_a, value_b = read(a), read(b)
        if value_a != value_b:
            differences.append(ControlDifference(variable=variable, a=value_a, b=value_b))
    return differences
