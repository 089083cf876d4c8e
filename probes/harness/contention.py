"""How busy the machine was with other work while probes ran: timings on a shared CPU mislead.

On a 2-core machine a second busy process turns a 0.1 ms multi-threaded matmul into ~8 ms (the
intra-op threads wait for a core). We cannot prevent that, but the evidence can say it happened:
CPU time the whole machine spent, minus what this process and its children spent (those a fork server
ran for it included), over the run.
"""

from __future__ import annotations

import os
import resource
import time
from dataclasses import dataclass

import psutil

from probes.harness.forkserver import forked_cpu_seconds
from probes.models import HostContention


def _own_cpu_seconds() -> float:
    """This process, its reaped children, and the probe children a fork server ran for it."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime + forked_cpu_seconds()


def _machine_busy_seconds() -> float:
    times = psutil.cpu_times()
    return sum(times) - times.idle - getattr(times, "iowait", 0.0)


@dataclass
class ContentionMeter:
    """Start it before the run, call `result()` after: the share of all cores other processes used."""

    started_wall: float
    started_busy: float
    started_own: float
    load_before: float

    @classmethod
    def start(cls) -> ContentionMeter:
        return cls(time.monotonic(), _machine_busy_seconds(), _own_cpu_seconds(), os.getloadavg()[0])

    def result(self) -> HostContention:
        """Other processes' CPU use as a fraction of all cores over the run (children must be reaped)."""
        wall = max(time.monotonic() - self.started_wall, 1e-9)
        cores = psutil.cpu_count() or 1
        others = (_machine_busy_seconds() - self.started_busy) - (_own_cpu_seconds() - self.started_own)
        share = min(1.0, max(0.0, others / (wall * cores)))
        return HostContention(
            other_cpu_share=round(share, 4),
            load_average_before=self.load_before,
            logical_cores=cores,
            busy=share > BUSY_SHARE,
        )


# Above this, another process held on average a fifth of the machine: enough to stall a thread pool.
BUSY_SHARE = 0.2
