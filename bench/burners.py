"""A busy host for a bench: CPU-burning processes started for a block and stopped after it."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def burners(count: int) -> Iterator[None]:
    """`count` processes that burn a CPU each until the block ends."""
    started = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for process in started:
            process.kill()
            process.wait()
