"""Hot-operator readings: each concern group's share of a profiled model's time, per (model, pass).

Reading names are `hotop_share_<group>.<model>.<pass>`, e.g. `hotop_share_gemm.dense-transformer.train`
(model `custom` for the user's own model). Which of them apply to a profile is decided in
advisor/recommendation/hot_operators.py. Shares are speed figures: they do not carry across hardware.
"""

from __future__ import annotations

from collections.abc import Sequence

from probes.hotops.analysis import HotopsProfile, hotops_profiles
from probes.hotops.groups import GROUPS
from probes.models import ProbeCase
from probes.reporting import Reading, make_reading

READING_PREFIX = "hotop_share_"


def hotop_reading_name(group: str, model: str, kind: str) -> str:
    """'gemm', 'moe', 'train' -> 'hotop_share_gemm.moe.train'."""
    return f"{READING_PREFIX}{group}.{model}.{kind}"


def parse_hotop_reading_name(name: str) -> tuple[str, str, str] | None:
    """'hotop_share_gemm.moe.train' -> ('gemm', 'moe', 'train'); None for any other reading."""
    if not name.startswith(READING_PREFIX):
        return None
    parts = name[len(READING_PREFIX) :].split(".")
    return (parts[0], parts[1], parts[2]) if len(parts) == 3 else None


def _parameters(profile: HotopsProfile) -> float:
    metric = profile.case.metrics.get("parameters")
    return metric.value if metric is not None else 0.0


def hotops_readings(cases: Sequence[ProbeCase]) -> list[Reading]:
    """One reading per group for each (model, pass); of several profiles of one, the largest model's."""
    chosen: dict[tuple[str, str], HotopsProfile] = {}
    for profile in hotops_profiles(cases):
        key = (profile.model, profile.kind)
        if key not in chosen or _parameters(profile) > _parameters(chosen[key]):
            chosen[key] = profile
    readings = []
    for (model, kind), profile in sorted(chosen.items()):
        size = f", {profile.size}" if profile.size else ""
        for group in GROUPS:
            share = profile.shares.get(group, 0.0)
            figure = f"{group} {share:.0%} of {model} {kind} self time (hotops{size})"
            readings.append(make_reading(hotop_reading_name(group, model, kind), share, figure, [profile.case]))
    return readings
