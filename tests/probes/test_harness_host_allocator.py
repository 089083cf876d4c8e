"""The probe child's host allocator: freed scratch is reused without page faults, and trimming gives it back.

Each check runs in a fresh interpreter, so the test process's own allocator is never changed.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from probes.harness.host_allocator import _glibc

pytestmark = pytest.mark.skipif(_glibc() is None, reason="mallopt and malloc_trim are glibc's; this libc has neither")

_SCRIPT = """
import json, resource, sys
import psutil
from probes.harness.host_allocator import hold_freed_memory, release_freed_memory

note = hold_freed_memory() if sys.argv[1] == "hold" else None
SIZE = 64 << 20  # above glibc's largest dynamic mmap threshold (32 MiB): mmapped afresh each time unless held

def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt

def cycle():
    block = bytearray(SIZE)  # zero-filled: every page is touched
    del block

cycle()
before = faults()
for _ in range(5):
    cycle()
per_cycle = (faults() - before) / 5
rss_held = psutil.Process().memory_info().rss
trimmed = release_freed_memory()
rss_trimmed = psutil.Process().memory_info().rss
print(json.dumps({"note": note, "faults_per_cycle": per_cycle, "released_mib": (rss_held - rss_trimmed) / 2**20,
                  "trimmed": trimmed}))
"""


def _run(mode: str) -> dict[str, object]:
    finished = subprocess.run([sys.executable, "-c", _SCRIPT, mode], capture_output=True, text=True, check=True)
    return json.loads(finished.stdout)


def test_held_memory_is_reused_without_faults_and_released_by_trim() -> None:
    held = _run("hold")
    assert "glibc malloc" in str(held["note"])
    pages = (64 << 20) // 4096
    assert float(held["faults_per_cycle"]) < 0.01 * pages  # the freed 64 MiB block is reused as it is
    assert held["trimmed"] is True
    assert float(held["released_mib"]) >= 32  # the held block went back to the kernel


def test_without_holding_each_large_block_faults_in_afresh() -> None:
    plain = _run("plain")
    pages = (64 << 20) // 4096
    assert float(plain["faults_per_cycle"]) > 0.5 * pages  # the contrast the holding removes
