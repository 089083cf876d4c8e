"""Numeric error of an output against its float64 reference, judged by a Tolerance (see tolerance.py)."""

from __future__ import annotations

import torch

from probes.models import NumericError
from probes.tolerance import Tolerance


def _as_float64(value: object) -> torch.Tensor:
    tensor = value if isinstance(value, torch.Tensor) else torch.as_tensor(value)
    return tensor.detach().to(device="cpu", dtype=torch.float64)


def compare(output: object, reference: object, tolerance: Tolerance) -> NumericError:
    """Max absolute and relative error of `output` against `reference`, and whether it is in tolerance."""
    out, ref = _as_float64(output), _as_float64(reference)
    atol, rtol = tolerance.atol, tolerance.rtol
    if out.shape != ref.shape:
        mismatch = f"output shape {tuple(out.shape)} differs from the reference's {tuple(ref.shape)}"
        return NumericError(max_abs=None, max_rel=None, atol=atol, rtol=rtol, passed=False, detail=mismatch)
    if out.numel() == 0:
        return NumericError(max_abs=0.0, max_rel=0.0, atol=atol, rtol=rtol, passed=True)
    # Non-finite values agree only when equal (same infinity) or both NaN.
    both_nan = torch.isnan(out) & torch.isnan(ref)
    finite = torch.isfinite(out) & torch.isfinite(ref)
    nonfinite_mismatch = ~finite & ~both_nan & (out != ref)
    diff = torch.where(finite, (out - ref).abs(), torch.zeros_like(out))
    denominator = ref.abs().clamp_min(max(atol, torch.finfo(torch.float64).tiny))
    max_abs = float(diff.max())
    # Where either side is not finite the relative error is not defined (a NaN reference would make it NaN).
    max_rel = float(torch.where(finite, diff / denominator, torch.zeros_like(out)).max())
    outside = (diff > atol + rtol * ref.abs()) & finite
    failures = int(outside.sum()) + int(nonfinite_mismatch.sum())
    detail: str | None = None
    if failures:
        detail = f"{failures} of {out.numel()} elements outside atol={atol:g} rtol={rtol:g}"
        if nonfinite_mismatch.any():
            detail += f" ({int(nonfinite_mismatch.sum())} NaN/Inf where the reference differs)"
    return NumericError(max_abs=max_abs, max_rel=max_rel, atol=atol, rtol=rtol, passed=failures == 0, detail=detail)
