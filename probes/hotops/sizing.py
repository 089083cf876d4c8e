"""Which model size and which (model, pass) cases fit the hotops probe's share.

Every case of one run profiles the same size, so model types compare at equal footing. Sizing takes the
largest size at which every wanted case fits; when even the tiny models do not all fit, the cases are
kept in priority order (every forward pass first, then the training steps) until the share is spent,
and at least the first one is always planned. Costs are assumed, high on purpose: an idle 2-core CPU
was measured at about a quarter of these per-pass times (the slowest model type), a loaded one at
several times more, which the harness then records as cases its share did not reach.
"""

from __future__ import annotations

from dataclasses import dataclass

from probes.hotops.passes import PASSES, Pass
from probes.reference_models import MODEL_SIZES, ModelSize

WARMUP_PASSES = 1
TIMED_PASSES = 5
PROFILED_PASSES = 5
_PROFILER_SLOWDOWN = 1.5  # a profiled pass against a plain one (CPU, small models)
_REFERENCE_SLOWDOWN = 3.0  # the float64 reference forward against an fp32 pass


@dataclass(frozen=True)
class DeviceCosts:
    """Assumed seconds on one device kind: per case whatever the size, and per pass at each size."""

    fixed_s: float  # building the model and its float64 copy, a profiler session, reading its events
    profiler_start_s: float  # the first profiler session in a process (kineto; CUPTI on CUDA)
    forward_s: dict[ModelSize, float]  # the slowest reference model's forward pass
    train_s: dict[ModelSize, float]  # its training step (forward, backward, AdamW)
    checked: bool  # fp32 on this device kind: the first pass is checked against a float64 reference


COSTS: dict[str, DeviceCosts] = {
    "cpu": DeviceCosts(
        fixed_s=0.3,
        profiler_start_s=1.5,
        forward_s={"tiny": 0.015, "small": 0.1, "medium": 4.0, "large": 30.0},
        train_s={"tiny": 0.1, "small": 0.4, "medium": 16.0, "large": 120.0},
        checked=True,
    ),
    "cuda": DeviceCosts(
        fixed_s=0.5,
        profiler_start_s=3.0,
        forward_s={"tiny": 0.005, "small": 0.01, "medium": 0.05, "large": 0.3},
        train_s={"tiny": 0.02, "small": 0.04, "medium": 0.2, "large": 1.2},
        checked=False,
    ),
}
COSTS["npu"] = COSTS["cuda"]  # not profiled on NPUs yet (the implementation is not enabled there)


@dataclass(frozen=True)
class PlannedProfile:
    """A model to profile (a reference model type, or 'custom') in one pass kind."""

    model: str
    kind: Pass


def case_seconds(costs: DeviceCosts, size: ModelSize, kind: Pass) -> float:
    """Expected seconds for one case: fixed costs, the checked pass, its reference, warmup, timed and profiled passes."""
    pass_s = costs.forward_s[size] if kind == "forward" else costs.train_s[size]
    reference_s = _REFERENCE_SLOWDOWN * costs.forward_s[size] if costs.checked else 0.0
    passes = 1 + WARMUP_PASSES + TIMED_PASSES + _PROFILER_SLOWDOWN * PROFILED_PASSES
    return costs.fixed_s + reference_s + passes * pass_s


def wanted_profiles(models: list[str]) -> list[PlannedProfile]:
    """Every model's forward pass, then every model's training step: the order a short share keeps them in."""
    return [PlannedProfile(model, kind) for kind in PASSES for model in models]


def choose_plan(device_kind: str, share_s: float, models: list[str]) -> tuple[ModelSize, list[PlannedProfile]]:
    """The largest size at which every wanted profile fits `share_s` (less the profiler's start, paid while
    planning); else the tiny size and a prefix that fits. Depends on its arguments alone, so a restarted
    child plans the same cases."""
    costs = COSTS[device_kind]
    share_s -= costs.profiler_start_s
    wanted = wanted_profiles(models)
    for size in reversed(MODEL_SIZES):
        if sum(case_seconds(costs, size, planned.kind) for planned in wanted) <= share_s:
            return size, wanted
    size = MODEL_SIZES[0]
    kept: list[PlannedProfile] = []
    left = share_s
    for planned in wanted:
        left -= case_seconds(costs, size, planned.kind)
        if left < 0 and kept:
            break
        kept.append(planned)
    return size, kept
