"""Pay torch.compile's once-per-process costs before any pass, so no implementation is charged for them.

The first compile in a process imports inductor's code generators, hashes the torch and triton
installs for its cache keys, checks the C++ compiler and starts the compile sidecar; on CUDA it
also starts the Triton compile workers (each imports torch). A deployment pays this once whatever
its strategy; charging it to whichever pass came first would bias the comparison by plan order.
"""

from __future__ import annotations

import functools

import torch
import torch._dynamo
from torch._inductor.async_compile import AsyncCompile


def _tiny_function(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.gelu(x * 2.0 + 1.0)


@functools.cache
def warm_compiler(device: torch.device) -> None:
    """Compile and run a tiny unrelated function on `device`, then forget it (dynamo reset)."""
    torch.compile(_tiny_function)(torch.ones(8, device=device))
    if device.type == "cuda":
        # The workers compile Triton kernels only; on CPU inductor compiles C++ in threads, so
        # starting them there would add a cost the default path never pays.
        AsyncCompile.wait_pool_ready()
    torch._dynamo.reset()
