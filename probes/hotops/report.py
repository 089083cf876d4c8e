"""What the hot-operator probe's evidence says: where each reference model's time goes, per concern group."""

from __future__ import annotations

from collections.abc import Sequence

from probes.hotops.analysis import hotops_profiles, profile_line, shown_groups
from probes.hotops.readings import hotops_readings
from probes.models import ProbeCase
from probes.reporting import BarGroup, BarPlot, ChartSpec, ProbeReport, Table


def hotops_findings(cases: Sequence[ProbeCase]) -> list[str]:
    """Per profiled (model, pass): the largest concern groups' shares of self time and the top operator."""
    return [profile_line(profile) for profile in hotops_profiles(cases)]


def hotops_table(cases: Sequence[ProbeCase]) -> Table:
    """Each profiled model and pass: the share of time in each operator group (groups with any time)."""
    profiles = hotops_profiles(cases)
    groups = shown_groups(profiles)
    rows = [(profile.model, profile.kind, *(f"{profile.shares[group]:.0%}" if group in profile.shares else "-" for group in groups))
            for profile in profiles]  # fmt: skip
    return Table("Hot operators: share of time per group", ("model", "pass", *groups), rows)


def hotops_charts(cases: Sequence[ProbeCase], device: str) -> list[ChartSpec]:
    """Each profiled model and pass as one bar of 100%, split into operator groups."""
    profiles = hotops_profiles(cases)
    groups = tuple(shown_groups(profiles))
    if not profiles or not groups:
        return []
    bars = tuple(BarGroup(f"{profile.model} {profile.kind}", tuple(profile.shares[group] * 100 if group in profile.shares else None
                                                                  for group in groups)) for profile in profiles)  # fmt: skip
    return [ChartSpec("hotops-shares", "Share of time per operator group",
                      BarPlot(f"Where the time goes, per model and pass ({device})", "% of profiled time", groups, bars,
                              "reference model and pass", stacked=True, y_max=100.0),
                      "Self time of each operator from torch.profiler, grouped by concern; the recommendation weighs evidence by these shares.")]  # fmt: skip


REPORT = ProbeReport("hotops", order=10, findings=hotops_findings, table=hotops_table, charts=hotops_charts,
                     readings=hotops_readings)  # fmt: skip
