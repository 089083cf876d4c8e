"""`scaled_dot_product_attention` with one backend forced, and the check that the backend can run at all.

Forcing a backend that cannot take a case (wrong device, dtype, head_dim, GPU generation) makes
torch raise "No available kernel" (CUDA) or "No viable backend" (CPU, torch 2.13) instead of
falling back; on CUDA it first warns why each backend was refused. The builder's first call turns
that into Unsupported with those reasons, so the evidence says which backends run on this machine.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from probes.registry import Unsupported

Attention = Callable[[torch.Tensor, torch.Tensor, torch.Tensor], torch.Tensor]

_NO_KERNEL_MARKERS = ("no available kernel", "no viable backend")
_REASON_CHARS = 280


def forced_sdpa(backend: SDPBackend, causal: bool) -> Attention:
    """SDPA restricted to `backend`; the restriction is set inside the call, so it is part of what is timed."""

    def attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        with sdpa_kernel(backend):
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

    return attend


def _no_kernel(error: RuntimeError) -> bool:
    message = str(error).lower()
    return any(marker in message for marker in _NO_KERNEL_MARKERS)


def first_call(attend: Attention, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, backend: SDPBackend) -> None:
    """Call once; raise Unsupported, with torch's reasons, when the forced backend has no kernel for the case."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            attend(q, k, v)
        except RuntimeError as error:
            if not _no_kernel(error):
                raise
            headline = str(error).strip().splitlines()[0]
            reasons = [" ".join(str(warning.message).split()) for warning in caught]
            detail = "; ".join(dict.fromkeys(reason for reason in reasons if reason))
            if headline.startswith("No viable backend"):  # torch's generic line: we turned the others off ourselves
                headline = ""
            text = f"{backend.name} has no kernel for this case here" + (f": {headline}" if headline else "")
            if detail:
                text += f" (torch: {detail})"
            raise Unsupported(text[:_REASON_CHARS]) from None
