"""The record's Evidence section for the hot-operator, layout, fusion and scaling probes (real evidence)."""

from __future__ import annotations

from pathlib import Path

from advisor.records.evidence_tables import evidence_tables
from probes.models import Evidence

MORE_PROBES = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-more-probes.json"


def test_tables_for_every_probe_that_measured_something():
    evidence = Evidence.load(MORE_PROBES)
    tables = {table.title: table for table in evidence_tables(evidence)}
    assert list(tables) == ["Hot operators: share of time per group", "Layout: NCHW vs channels-last",
                            "Fusion and launch count", "Multi-device scaling"]  # transfers skipped on a CPU: no table
    hotops = tables["Hot operators: share of time per group"]
    profiled = [case for case in evidence.cases if case.key.probe == "hotops" and case.status == "ok"]
    assert len(hotops.rows) == len(profiled) and hotops.header[:2] == ("model", "pass") and "gemm" in hotops.header
    dense = next(row for row in hotops.rows if row[:2] == ("dense-transformer", "forward"))
    share = next(case for case in profiled if case.key.options["model"] == "dense-transformer"
                 and case.key.options["pass"] == "forward").metrics["share_gemm"].value
    assert dense[hotops.header.index("gemm")] == f"{share:.0%}"
    layout = tables["Layout: NCHW vs channels-last"]
    assert {row[0] for row in layout.rows} == {"conv", "block"} and all(cell.endswith("us") for row in layout.rows for cell in row[3:])
    fusion = tables["Fusion and launch count"]
    assert [row[4] for row in fusion.rows] == ["5", "1"] and fusion.findings
    scaling = tables["Multi-device scaling"]
    assert any("GB/s bus" in row[4] for row in scaling.rows) and any(row[4].startswith("efficiency") for row in scaling.rows)


def test_the_context_quotes_the_measured_hot_operators_of_the_model_type():
    import datetime as dt

    from advisor.profile import Profile
    from advisor.recommendation.engine import recommend
    from advisor.records.decision import build_front_matter
    from advisor.records.models import EvidenceRef
    from advisor.records.render import render_record

    evidence = Evidence.load(MORE_PROBES)
    profile = Profile(model_type="moe", hardware="x86-cpu", workload="training", team_skill="kernel")
    answer = recommend(profile, [evidence])
    front = build_front_matter(1, "MoE", answer, [EvidenceRef(file="e.json", sha256="0" * 64)], evidence.environment, [],
                               dt.date(2026, 1, 2))
    body = render_record(front, answer, [evidence])
    context = body.split("## Decision Drivers")[0]
    assert "* Measured: moe forward (tiny): gemm 28%" in context and "* Measured: moe train (tiny)" in context
    assert "dense-transformer forward" not in context
