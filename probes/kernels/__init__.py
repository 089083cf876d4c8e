"""Triton kernels written in this project (matmul, flash-style attention) for the probes to measure.

Importing this package does not import triton; the kernel modules do, and they build the launchable
kernel object at launch time so that TRITON_INTERPRET is honoured whenever it is set. aot.py compiles
them ahead of time for real GPU targets (no GPU needed); tiles.py, launch_configs.py, targets.py,
footprints.py and fit.py (which tiles fit which GPU) import neither torch nor triton.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    import torch
    from triton.runtime.jit import KernelInterface

__all__ = [
    "check_device",
    "check_interpreter_dtype",
    "device_guard",
    "fp32_dot_precision",
    "interpreted",
    "interpreter_active",
    "is_power_of_two",
    "jit_helper",
    "launchable",
]

# Same spellings triton's own getenv_bool accepts (checked against triton 3.9), so the wrapper and
# triton never disagree about whether the interpreter is on.
_TRUTHY = frozenset({"1", "true", "on", "yes", "y"})

# (kernel function, interpreted?) -> launchable kernel; built once per mode.
_KERNELS: dict[tuple[Callable[..., Any], bool], KernelInterface[Any]] = {}


def interpreter_active() -> bool:
    """True when TRITON_INTERPRET is set to a truthy value, read now rather than at import."""
    return os.environ.get(INTERPRET_ENV, "").strip().lower() in _TRUTHY


INTERPRET_ENV = "TRITON_INTERPRET"


@contextlib.contextmanager
def interpreted() -> Iterator[None]:
    """TRITON_INTERPRET=1 for the block only (the kernels and triton read it at each launch), then as it was:
    an interpreted check on CPU must not leave the rest of the process (an AOT compile, another probe's
    builder, a test) interpreting."""
    previous = os.environ.get(INTERPRET_ENV)
    os.environ[INTERPRET_ENV] = "1"
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(INTERPRET_ENV, None)
        else:
            os.environ[INTERPRET_ENV] = previous


def launchable(fn: Callable[..., Any]) -> KernelInterface[Any]:
    """Wrap a plain kernel function for the current mode: interpreter when active, else the JIT.

    triton.jit decides interpreted-or-compiled when it decorates, i.e. at import; a module imported
    before TRITON_INTERPRET was set would be stuck compiling for a GPU. Choosing here avoids that.
    The same holds for triton's own @jit helpers (tl.cdiv, tl.zeros, tl.max, tl.sum, ...), fixed
    when triton itself was imported, so kernels passed here call tl builtins only, and receive any
    such helper they need as a tl.constexpr argument built by jit_helper.
    """
    interpret = interpreter_active()
    key = (fn, interpret)
    kernel = _KERNELS.get(key)
    if kernel is None:
        if interpret:
            from triton.runtime.interpreter import InterpretedFunction

            kernel = InterpretedFunction(fn)
        else:
            from triton.runtime.jit import JITFunction

            kernel = JITFunction(fn)
        _KERNELS[key] = kernel
    return kernel


def jit_helper(helper: Callable[..., Any]) -> Callable[..., Any]:
    """A triton.language @jit helper (tl.max, tl.sum, ...) as the current mode can call it from a kernel.

    Pass the result as a tl.constexpr argument. The JIT compiles a call to the helper itself. The
    interpreter runs the kernel as Python under its own patched triton.language, where the helper's
    plain function runs as well, and tl.max / tl.sum reduce there with numpy. Calling the helper
    object instead fails ("Cannot call @triton.jit'd outside of the scope of a kernel") when triton
    was imported before TRITON_INTERPRET was set.
    """
    if not interpreter_active():
        return helper
    # A JITFunction (an InterpretedFunction if triton was imported interpreted) keeps its function as
    # `.fn`; triton's annotations type the decorated helpers as plain functions, hence getattr.
    function: Callable[..., Any] = getattr(helper, "fn")
    return function


def check_device(name: str, tensors: tuple[torch.Tensor, ...]) -> None:
    """Raise ValueError unless all tensors share one device the current mode can launch on."""
    devices = {t.device for t in tensors}
    if len(devices) != 1:
        raise ValueError(f"{name}: all tensors must be on one device, got {sorted(map(str, devices))}")
    device = devices.pop()
    # The interpreter copies arguments to host memory itself, so any device works there.
    if not interpreter_active() and device.type != "cuda":
        raise ValueError(
            f"{name}: tensors must be on a CUDA/ROCm device (got {device}); "
            "set TRITON_INTERPRET=1 to run on CPU tensors through the Triton interpreter"
        )


def check_interpreter_dtype(name: str, dtype: torch.dtype) -> None:
    """Raise ValueError for bf16 under the interpreter, whose tl.dot returns garbage for it."""
    import torch

    # triton 3.9's interpreter keeps bf16 as raw uint16 and its dot multiplies those integers.
    if dtype == torch.bfloat16 and interpreter_active():
        raise ValueError(f"{name}: bfloat16 gives wrong results under TRITON_INTERPRET; use fp32 or fp16 there")


def device_guard(device: torch.device) -> contextlib.AbstractContextManager[object]:
    """Make a CUDA tensor's device current for a launch; a no-op for other devices."""
    # Triton launches on torch's current device, not the tensors' one: cuda:1 tensors would be
    # read from a kernel running on cuda:0 without this.
    if device.type == "cuda":
        import torch

        return torch.cuda.device(device)
    return contextlib.nullcontext()


def fp32_dot_precision() -> str:
    """tl.dot input precision for fp32 inputs, following torch's own fp32 matmul setting.

    Matching torch keeps comparisons with torch.matmul/SDPA fair: tf32 only where torch uses it too.
    """
    import torch

    # ROCm's Triton accepts "tf32" only on some architectures; "ieee" works everywhere.
    if torch.version.hip is None and torch.backends.cuda.matmul.allow_tf32:
        return "tf32"
    return "ieee"


def is_power_of_two(value: int) -> bool:
    """True for 1, 2, 4, ...; Triton block shapes (tl.arange extents) must be powers of two."""
    return value > 0 and value & (value - 1) == 0
