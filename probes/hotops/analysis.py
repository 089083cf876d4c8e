"""Hot-operator shares read off hotops cases: per (model, pass), the share of each concern group."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from probes.hotops.groups import GROUPS
from probes.models import ProbeCase


@dataclass(frozen=True)
class HotopsProfile:
    """One profiled (model, pass): group shares summing to 1, the top operators, the case it came from."""

    model: str
    kind: str
    size: str | None
    shares: Mapping[str, float]
    top: tuple[tuple[str, float], ...]  # (operator, share), slowest first
    case: ProbeCase

    def ranked_groups(self) -> list[tuple[str, float]]:
        """Groups by share, largest first, zero shares left out."""
        return sorted(((group, share) for group, share in self.shares.items() if share > 0), key=lambda item: -item[1])


def hotops_profiles(cases: Sequence[ProbeCase]) -> list[HotopsProfile]:
    """Every ok hotops case with group shares, in case order."""
    profiles = []
    for case in cases:
        if case.key.probe != "hotops" or case.status != "ok" or f"share_{GROUPS[0]}" not in case.metrics:
            continue
        shares: dict[str, float] = {group: case.metrics[f"share_{group}"].value for group in GROUPS if f"share_{group}" in case.metrics}
        size = case.key.options.get("size")
        profiles.append(
            HotopsProfile(
                model=str(case.key.options.get("model")), kind=str(case.key.options.get("pass")),
                size=str(size) if size is not None else None, shares=shares,
                top=tuple((operator.name, operator.share) for operator in case.operators or []), case=case,
            )
        )  # fmt: skip
    return profiles


SHOWN_SHARE = 0.005  # a group below half a percent in every profile is left out of tables and charts


def shown_groups(profiles: Sequence[HotopsProfile]) -> list[str]:
    """The groups, by name, that hold at least SHOWN_SHARE of the time in some profile."""
    return sorted({group for profile in profiles for group, share in profile.shares.items() if share >= SHOWN_SHARE})


def profile_line(profile: HotopsProfile, groups: int = 4) -> str:
    """'dense-transformer forward (small): gemm 61%, normalization 12%, ...; top aten::addmm 45%'."""
    size = f" ({profile.size})" if profile.size else ""
    ranked = ", ".join(f"{group} {share:.0%}" for group, share in profile.ranked_groups()[:groups])
    top = f"; top {profile.top[0][0]} {profile.top[0][1]:.0%}" if profile.top else ""
    return f"{profile.model} {profile.kind}{size}: {ranked}{top}"
