"""torch.compile'd matmul: one cold, shape-specialised compile per case, and its compile time.

Each case starts from a reset dynamo with the FX graph cache bypassed, so `compile_s` neither
depends on the cases compiled before it (no automatic dynamic shapes after a recompile) nor on
what earlier runs left on disk. The compiler's one-time start (importing dynamo and inductor, the
first compile of the process) is paid by `warm_up_compiler` while planning, outside every case.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import torch

from probes.harness.device import Device

_WARM_UP_SIZE = 16


# Compile in this process: inductor's default pool of worker processes spends seconds of CPU importing
# torch in the background, which would slow every case timed meanwhile. A patch, not an assignment: it
# holds while compiling only (the first call compiles), and the process's setting is as it was after.
_IN_PROCESS = {"compile_threads": 1}


def _compile() -> Callable[[torch.Tensor, torch.Tensor], torch.Tensor]:
    import torch._dynamo

    torch._dynamo.reset()
    # dynamic=False: a deployment with fixed shapes (padded batches) gets kernels for exactly them.
    return torch.compile(torch.matmul, dynamic=False)


def warm_up_compiler(device: Device) -> None:
    """Compile and run one tiny matmul so the first measured case does not pay the compiler's start-up.

    A compiler that fails here fails again, with its reason, in each torch.compile case; the
    other implementations must not lose their plan to it, so any error is ignored here.
    """
    import torch._inductor.config as inductor_config

    try:
        x = torch.ones(_WARM_UP_SIZE, _WARM_UP_SIZE, device=device.torch_device)
        with inductor_config.patch(_IN_PROCESS):
            _compile()(x, x)
        device.synchronize()
    except Exception:  # noqa: BLE001 - reported by the cases, see the docstring
        pass


def compile_matmul(
    a: torch.Tensor, b: torch.Tensor, device: Device
) -> tuple[Callable[[], torch.Tensor], float]:
    """A zero-argument call of the compiled a @ b, and the seconds its first (compiling) call took."""
    import torch._inductor.config as inductor_config

    compiled = _compile()
    began = time.perf_counter()
    with inductor_config.patch({**_IN_PROCESS, "fx_graph_cache": False}):
        compiled(a, b)
        device.synchronize()
    compile_s = time.perf_counter() - began
    return lambda: compiled(a, b), compile_s
