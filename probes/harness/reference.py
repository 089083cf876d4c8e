"""A fixed reference kernel, timed at the start of every probe child: how fast the machine itself is then.

Two runs of the same code on the same machine can differ by more than a case's band for a stretch
of tens of seconds: on the 2-core VM this was written on, one run's attention probe took 10-40%
longer on every visit (the smallest calls the most) while the gemm probe before it matched the
other run within 3%. Nothing inside a run's case samples shows that. A kernel that never changes,
timed in each child, does: `advisor compare` reads the reference's ratio between the runs per
probe and will not call a case FASTER/SLOWER when the machine itself moved that way as far
(advisor/comparison/verdict.py).

The kernel is a small SDPA call (fp32, 1x2x128x64, the process's threads), the size of call that
slowed the most; about 150 calls, 10-20 ms. CPU only: accelerator clocks move differently and are
not read here.
"""

from __future__ import annotations

import statistics

import torch

from probes.harness.device import Device

_SHAPE = (1, 2, 128, 64)
_WARM_CALLS = 10
_SAMPLES = 15
_CALLS_PER_SAMPLE = 10


def reference_seconds(device: Device) -> float | None:
    """The reference kernel's median seconds per call on this device now; None off the CPU or if it fails."""
    if device.kind != "cpu":
        return None
    generator = torch.Generator().manual_seed(0)
    query = torch.randn(_SHAPE, generator=generator)

    def call() -> torch.Tensor:
        return torch.nn.functional.scaled_dot_product_attention(query, query, query)

    try:
        for _ in range(_WARM_CALLS):
            call()
        return statistics.median(device.time_calls(call, _SAMPLES, _CALLS_PER_SAMPLE))
    except RuntimeError:
        return None
