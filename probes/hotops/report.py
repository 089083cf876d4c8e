"""What the hot-operator probe's evidence says: where each reference model's time goes, per concern group.

Its readings are each concern group's share of a profiled model's time, per (model, pass), named
`hotop_share_<group>.<model>.<pass>`, e.g. `hotop_share_gemm.dense-transformer.train` (model `custom`
for the user's own model). Which of them apply to a profile is decided in
advisor/recommendation/hot_operators.py. Shares are speed figures: they do not carry across hardware.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from probes.hotops.groups import GROUPS
from probes.models import ProbeCase
from probes.reporting import (
    BarGroup,
    BarPlot,
    ChartSpec,
    ProbeReport,
    Reading,
    ReadingFamily,
    ReadingSpec,
    Table,
    make_reading,
)


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
        shares: dict[str, float] = {
            group: case.metrics[f"share_{group}"].value for group in GROUPS if f"share_{group}" in case.metrics
        }
        size = case.key.options.get("size")
        profiles.append(
            HotopsProfile(
                model=str(case.key.options.get("model")),
                kind=str(case.key.options.get("pass")),
                size=str(size) if size is not None else None,
                shares=shares,
                top=tuple((operator.name, operator.share) for operator in case.operators or []),
                case=case,
            )
        )
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


# A concern group's share of a model's time: hotop_share_<group>.<model>.<pass> as read, and hotop_share_<group>
# for the profile's own share in switch conditions (advisor/recommendation/hot_operators.py). Speed: not portable.
HOTOP_SHARE = ReadingFamily("hotop_share_")


def hotop_reading(group: str, model: str, kind: str) -> ReadingSpec:
    """'gemm', 'moe', 'train' -> hotop_share_gemm.moe.train."""
    return HOTOP_SHARE.named(f"{group}.{model}.{kind}")


def parse_hotop_reading_name(name: str) -> tuple[str, str, str] | None:
    """'hotop_share_gemm.moe.train' -> ('gemm', 'moe', 'train'); None for any other reading."""
    part = HOTOP_SHARE.part_of(name)
    if part is None:
        return None
    parts = part.split(".")
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
            readings.append(make_reading(hotop_reading(group, model, kind), share, figure, [profile.case]))
    return readings


def hotops_findings(cases: Sequence[ProbeCase]) -> list[str]:
    """Per profiled (model, pass): the largest concern groups' shares of self time and the top operator."""
    return [profile_line(profile) for profile in hotops_profiles(cases)]


def hotops_table(cases: Sequence[ProbeCase]) -> Table:
    """Each profiled model and pass: the share of time in each operator group (groups with any time)."""
    profiles = hotops_profiles(cases)
    groups = shown_groups(profiles)
    rows = [
        (
            profile.model,
            profile.kind,
            *(f"{profile.shares[group]:.0%}" if group in profile.shares else "-" for group in groups),
        )
        for profile in profiles
    ]
    return Table("Hot operators: share of time per group", ("model", "pass", *groups), rows)


def hotops_charts(cases: Sequence[ProbeCase], device: str) -> list[ChartSpec]:
    """Each profiled model and pass as one bar of 100%, split into operator groups."""
    profiles = hotops_profiles(cases)
    groups = tuple(shown_groups(profiles))
    if not profiles or not groups:
        return []
    bars = tuple(
        BarGroup(
            f"{profile.model} {profile.kind}",
            tuple(profile.shares[group] * 100 if group in profile.shares else None for group in groups),
        )
        for profile in profiles
    )
    return [
        ChartSpec(
            "hotops-shares",
            "Share of time per operator group",
            BarPlot(
                f"Where the time goes, per model and pass ({device})",
                "% of profiled time",
                groups,
                bars,
                "reference model and pass",
                stacked=True,
                y_max=100.0,
            ),
            "Self time of each operator from torch.profiler, grouped by concern; the recommendation weighs evidence by these shares.",
        )
    ]


REPORT = ProbeReport(
    "hotops",
    order=10,
    findings=hotops_findings,
    table=hotops_table,
    charts=hotops_charts,
    readings=hotops_readings,
    declares=(HOTOP_SHARE,),
)
