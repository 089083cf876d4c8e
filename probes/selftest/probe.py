"""Self-test probe: a tiny fp32 matmul and an elementwise add, each by torch and by numpy.

Small enough for any CPU and any budget; it exists so every test run exercises discovery, the
registry, the timer, memory, numerics and isolation. See faults.py for its test-only hooks.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from probes.harness.device import Device
from probes.registry import Bench, CaseSpec, Probe, implementation
from probes.selftest.faults import hang, out_of_memory, raises, segfault, wrong_answer
from probes.selftest.inputs import add_inputs, matmul_inputs

__all__ = ["PROBE", "hang", "out_of_memory", "raises", "segfault", "wrong_answer"]  # faults join the probe

# Throughput assumed when sizing: low on purpose, so a slow or busy machine still fits its share.
_ASSUMED_FLOP_PER_S = {"cpu": 2e9, "cuda": 2e12, "npu": 2e12}
_MATMUL_SIZES = (32, 64, 128, 256, 512, 1024)
_CALLS_PLANNED = 50  # check + warmup + timed calls a case should afford
_UNITS = 6  # two matmul sizes and one add, each by two implementations
_ADD_SIZE = 1 << 16


def matmul_sizes(device_kind: str, share_s: float) -> list[int]:
    """The two largest sizes whose planned calls fit one unit's part of the share (at least the smallest)."""
    per_unit_s = share_s / _UNITS
    fitting = [n for n in _MATMUL_SIZES if _CALLS_PLANNED * 2 * n**3 / _ASSUMED_FLOP_PER_S[device_kind] <= per_unit_s]
    return fitting[-2:] or [_MATMUL_SIZES[0]]


def selftest_cases(device: Device, share_s: float) -> list[CaseSpec]:
    """Square fp32 matmuls sized to the share, then one fp32 add."""
    cases = [
        CaseSpec(
            dtype="fp32",
            shape={"m": n, "n": n, "k": n},
            layout="row-major",
            options={"op": "matmul"},
            flops=2.0 * n**3,
            bytes_moved=3.0 * 4 * n * n,
        )
        for n in matmul_sizes(device.kind, share_s)
    ]
    cases.append(CaseSpec(dtype="fp32", shape={"n": _ADD_SIZE}, options={"op": "add"}, bytes_moved=3.0 * 4 * _ADD_SIZE))
    return cases


PROBE = Probe(
    name="selftest",
    description="Harness self-test: a small fp32 matmul and an elementwise add, by torch and numpy.",
    cases=selftest_cases,
    runs_by_default=False,  # it tests the harness: run when named, never as part of "all"
)


def _op(name: str) -> Callable[[CaseSpec], bool]:
    return lambda case: case.options.get("op") == name


def _on_cpu(device: Device) -> bool:
    return device.kind == "cpu"


@implementation("torch.matmul", baseline=True, supports=_op("matmul"))
def matmul_torch(case: CaseSpec, device: Device) -> Bench:
    a, b = matmul_inputs(case, device)
    return Bench(run=lambda: torch.matmul(a, b), reference=lambda: a.double() @ b.double())


@implementation("numpy.matmul", enabled=_on_cpu, supports=_op("matmul"))
def matmul_numpy(case: CaseSpec, device: Device) -> Bench:
    a, b = matmul_inputs(case, device)
    a_array, b_array = a.numpy(), b.numpy()
    return Bench(run=lambda: np.matmul(a_array, b_array), reference=lambda: a.double() @ b.double())


@implementation("torch.add", baseline=True, supports=_op("add"))
def add_torch(case: CaseSpec, device: Device) -> Bench:
    a, b = add_inputs(case, device)
    return Bench(run=lambda: torch.add(a, b), reference=lambda: a.double() + b.double())


@implementation("numpy.add", enabled=_on_cpu, supports=_op("add"))
def add_numpy(case: CaseSpec, device: Device) -> Bench:
    a, b = add_inputs(case, device)
    a_array, b_array = a.numpy(), b.numpy()
    return Bench(run=lambda: np.add(a_array, b_array), reference=lambda: a.double() + b.double())
