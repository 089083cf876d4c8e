"""Charts drawn from real evidence files: the four core probes and the hot-operator, layout, fusion, scaling ones."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from advisor.site.evidence_charts import evidence_charts
from probes.models import Evidence

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SVG = "{http://www.w3.org/2000/svg}"


def _charts(name: str) -> dict:
    return {chart.name: chart for chart in evidence_charts(Evidence.load(FIXTURES / name))}


def test_core_suite_draws_gemm_attention_dynamic_and_int8():
    charts = _charts("cpu-suite.json")
    assert set(charts) == {"gemm-tflops", "gemm-peak", "attention-time", "attention-memory", "dynamic-latency",
                           "dynamic-compile", "int8-tradeoff"}
    for chart in charts.values():
        ET.fromstring(chart.svg)


def test_more_probes_draw_shares_layout_fusion_and_scaling():
    charts = _charts("cpu-more-probes.json")
    assert set(charts) == {"hotops-shares", "layout-time", "fusion-time", "scaling-bandwidth", "scaling-efficiency"}
    fusion = ET.fromstring(charts["fusion-time"].svg)
    labels = [text.text for text in fusion.iter(f"{SVG}text")]
    assert "(5 launches)" in labels and "(1 launches)" in labels


def test_each_hot_operator_bar_stacks_to_one_hundred_percent():
    evidence = Evidence.load(FIXTURES / "cpu-more-probes.json")
    root = ET.fromstring(_charts("cpu-more-probes.json")["hotops-shares"].svg)
    segments = [rect for rect in root.iter(f"{SVG}rect") if rect.find(f"{SVG}title") is not None]
    by_x: dict[str, float] = {}
    for rect in segments:
        by_x[rect.get("x")] = by_x.get(rect.get("x"), 0.0) + float(rect.get("height"))
    profiled = [case for case in evidence.cases if case.key.probe == "hotops" and case.status == "ok"]
    assert len(by_x) == len(profiled)
    heights = list(by_x.values())
    assert max(heights) - min(heights) < 0.02 * max(heights)  # every pass adds up to the same 100%
