"""The tolerance each dtype's output is held to against a float64 reference computed on the same inputs.

An element passes when |out - ref| <= atol + rtol * |ref| (torch.isclose's rule). Probes scale
their inputs so outputs are of order one (e.g. a matmul's inputs by 1/sqrt(k)), which makes one
absolute tolerance per dtype meaningful. Why each value (ulp = spacing of the dtype at 1.0):

- fp32 1e-4: ~840 ulps, room for accumulation-order differences over 10^4-term sums (typical
  error sqrt(k)*ulp ~ 1e-5); TF32 (ulp 1e-3) fails on purpose: it is a precision change the
  evidence must show, and a probe that measures TF32 declares its own tolerance.
- fp16 1e-2: ~10 ulps; fp32 accumulation plus the final rounding passes with room, pure fp16
  accumulation over long sums does not, which is a real finding.
- bf16 2e-2: ~2.5 ulps (ulp 7.8e-3); torch.testing uses 1.6e-2.
- fp8 0.125: one e4m3 ulp; outputs are usually bf16/fp32, so only input rounding shows.
- int8 atol 1, rtol 0: int32 accumulation is exact; requantizing may round one step either way.
"""

from __future__ import annotations

from dataclasses import dataclass

from probes.environment.models import Dtype


@dataclass(frozen=True)
class Tolerance:
    """An element passes when |out - ref| <= atol + rtol * |ref|."""

    atol: float
    rtol: float


TOLERANCES: dict[Dtype, Tolerance] = {
    "fp32": Tolerance(atol=1e-4, rtol=1e-4),
    "fp16": Tolerance(atol=1e-2, rtol=1e-2),
    "bf16": Tolerance(atol=2e-2, rtol=2e-2),
    "fp8": Tolerance(atol=0.125, rtol=0.125),
    "int8": Tolerance(atol=1.0, rtol=0.0),
}


def tolerance_for(dtype: Dtype, override: Tolerance | None = None) -> Tolerance:
    """The case's own tolerance when it declares one, else the table's entry for its dtype."""
    return override if override is not None else TOLERANCES[dtype]
