"""Test-only implementations that misbehave: crash, hang, raise, run out of memory, answer wrongly.

They exist in a plan only when ADVISOR_SELFTEST_FAULTS names them (comma-separated, e.g.
"segfault,hang"); a normal run never sees them. The harness tests use them to prove that one bad
case is recorded as failed with its reason while the others are still measured.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import torch

from probes.harness.device import Device
from probes.harness.isolation import TEMP_PREFIX
from probes.registry import Bench, CaseSpec, implementation
from probes.selftest.inputs import add_inputs

FAULTS_ENV = "ADVISOR_SELFTEST_FAULTS"
FAULT_NAMES = ("segfault", "hang", "raise", "oom", "wrong")
_OOM_HEADROOM_BYTES = 64 * 1024**2
_OOM_REQUEST_BYTES = 1024**3


def requested_faults() -> set[str]:
    """The fault names listed in ADVISOR_SELFTEST_FAULTS."""
    return {name.strip() for name in os.environ.get(FAULTS_ENV, "").split(",") if name.strip()}


def _only_when(fault: str) -> Callable[[CaseSpec], bool]:
    return lambda case: case.options.get("op") == "add" and fault in requested_faults()


@implementation("fault.segfault", supports=_only_when("segfault"))
def segfault(case: CaseSpec, device: Device) -> Bench:
    """Kill the child with SIGSEGV, as a native crash would."""
    return Bench(run=lambda: os.kill(os.getpid(), signal.SIGSEGV))


HANG_MARKER = "selftest fault: hanging"  # in the child's log once the hang begins: tests signal at that moment


def hang_began(temp_root: Path) -> bool:
    """The hang fault has begun in a run whose temporary folders are under `temp_root` (its TMPDIR): a child's log
    there holds HANG_MARKER."""
    for log in temp_root.glob(f"{TEMP_PREFIX}*/child.log"):
        try:
            if HANG_MARKER in log.read_text(errors="replace"):
                return True
        except OSError:  # the run removed its folder between the listing and the read
            continue
    return False


def _hang() -> None:
    print(HANG_MARKER, flush=True)
    time.sleep(3600)


@implementation("fault.hang", supports=_only_when("hang"))
def hang(case: CaseSpec, device: Device) -> Bench:
    """Never return: the parent must declare the case hung and kill the child."""
    return Bench(run=_hang)


def _raise() -> None:
    raise RuntimeError("selftest fault: a deliberate exception")


@implementation("fault.raise", supports=_only_when("raise"))
def raises(case: CaseSpec, device: Device) -> Bench:
    """Raise a Python exception on the first call."""
    return Bench(run=_raise)


@implementation("fault.oom", supports=_only_when("oom"))
def out_of_memory(case: CaseSpec, device: Device) -> Bench:
    """Ask for 1 GiB under an address-space limit just above what the process already maps."""
    try:
        import resource
    except ImportError:  # not on Linux/macOS: simulate
        raise MemoryError("selftest fault: simulated out of memory") from None
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = psutil.Process().memory_info().vms + _OOM_HEADROOM_BYTES
    resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
    try:
        torch.empty(_OOM_REQUEST_BYTES, dtype=torch.uint8)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    raise MemoryError("selftest fault: the allocation unexpectedly succeeded under the limit")


@implementation("fault.wrong", supports=_only_when("wrong"))
def wrong_answer(case: CaseSpec, device: Device) -> Bench:
    """An add that is off by 1e-2: far outside the fp32 tolerance (1e-4)."""
    a, b = add_inputs(case, device)
    return Bench(run=lambda: a + b + 1e-2, reference=lambda: a.double() + b.double())
