"""The record states how well the samples pinned the medians down (and that the host was busy when it was)."""

from __future__ import annotations

from pathlib import Path

from advisor.records.render import confidence_reached
from probes.models import Evidence, HostContention

CPU_SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-suite.json"


def test_the_ci_width_reached_is_stated_per_evidence_file():
    suite = Evidence.load(CPU_SUITE)
    widths = sorted(suite.ci_half_widths())
    line = confidence_reached(suite)
    assert line is not None and line.startswith("samples reached: each timed median within +/-")
    assert f"(median over {len(widths)} timed cases; widest +/-{widths[-1]:.1%})" in line
    assert "at 95% confidence; the harness aims at +/-2%" in line and "busy" not in line
    busy = suite.model_copy(update={"host_contention": HostContention(other_cpu_share=0.55, load_average_before=2.0,
                                                                       logical_cores=2, busy=True)})
    assert (confidence_reached(busy) or "").endswith("the host was busy (other processes took 55% of the CPU)")
    assert confidence_reached(suite.model_copy(update={"cases": []})) is None
