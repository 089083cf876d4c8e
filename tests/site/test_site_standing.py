"""The record page and the home page say how far to trust a decision: the one-line verdict first, the confidence,
whether the evidence was measured on the target (proxy evidence flagged in the facts and on every chart), prose
code shown as code (no literal backticks), and charts that keep their legends and axes whole."""

from __future__ import annotations

import html
import re
from pathlib import Path

from advisor.markdown import md_prose
from advisor.site.svg import HEIGHT, legend_lines, scatter_chart, stacked_bar_chart
from probes.reporting import BarGroup, LabelledPoint


def _page(built_site: Path, number: int) -> str:
    pages = sorted((built_site / "decisions").glob(f"{number:04d}-*/index.html"), key=lambda path: len(str(path)))
    assert pages, f"no page for record {number}"
    return pages[0].read_text(encoding="utf-8")  # the record's page; its evidence page's name adds "-evidence"


def _visible_text(page: str) -> str:
    """The article's text as a reader sees it: tags out, code spans out (their backticks are the reader's own)."""
    article = page[page.index("<article"): page.index("</article>")]
    without_code = re.sub(r"<code>.*?</code>", "", article, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", without_code))


def test_the_record_page_opens_with_its_verdict_then_the_facts(built_site: Path):
    page = _page(built_site, 2)
    verdict, facts = page.index("<strong>Verdict:</strong>"), page.index("Target hardware")
    assert verdict < facts
    assert page.count("<strong>Verdict:</strong>") == 1  # moved up, not repeated in the body


def test_proxy_evidence_is_flagged_in_the_facts_and_on_every_chart(built_site: Path):
    proxy = _page(built_site, 2)  # an nvidia-gpu decision from the CPU suite
    assert "proxy (x86-cpu): measured on another hardware family than the target nvidia-gpu" in html.unescape(proxy)
    charts = re.findall(r'<img [^>]*alt="([^"]*)"[^>]*class="advisor-chart"|<img [^>]*class="advisor-chart"[^>]*alt="([^"]*)"', proxy)
    titles = [html.unescape(first or second) for first, second in charts]
    assert titles and all(title.startswith("PROXY, measured on x86-cpu") and "not the target nvidia-gpu" in title
                          for title in titles), titles
    on_target = _page(built_site, 4)  # an x86-cpu decision from the same suite
    assert "on target (x86-cpu)" in html.unescape(on_target) and "PROXY" not in on_target


def test_the_home_page_shows_confidence_and_where_the_evidence_was_measured(built_site: Path):
    home = html.unescape((built_site / "index.html").read_text(encoding="utf-8"))
    assert "<th>Confidence (evidence)</th>" in home
    rows = {int(number): row for number, row in re.findall(r"<tr>\s*<td><a [^>]*>(\d{4})[^<]*</a>(.*?)</tr>", home, flags=re.S)}
    assert re.search(r"<td>0\.\d\d \(proxy \(x86-cpu\)\)</td>", rows[2]) and re.search(r"<td>0\.\d\d \(on target\)</td>", rows[4])


def test_no_literal_backticks_reach_the_site(built_site: Path):
    for number in (2, 4):
        assert "`" not in _visible_text(_page(built_site, number))
    assert md_prose("run `advisor probe` there; >= 1.1x") == "run `advisor probe` there; `>=` 1.1x"


def test_a_legend_keeps_every_name_whole_within_the_chart():
    long_names = [f"torchao.int8_dynamic_activation_int8_weight mlp {n}x{n}x{4 * n}" for n in (64, 128, 256, 512)]
    svg = scatter_chart("INT8", "error", "speedup", [LabelledPoint(name, 0.5 + i, 1.2) for i, name in enumerate(long_names)])
    shown = " ".join(html.unescape(text) for text in re.findall(r'text-anchor="start"[^>]*>([^<]*)<', svg))
    for name in long_names:
        assert all(part in shown for part in legend_lines(name))
    assert all(float(y) < HEIGHT for y in re.findall(r'<text x="[\d.]+" y="([\d.]+)" text-anchor="start"', svg))
    crowded = scatter_chart("many", "x", "y", [LabelledPoint(f"case {i} " * 3, i + 1.0, 1.0) for i in range(40)])
    assert "more (see the evidence page)" in crowded
    assert all(float(y) < HEIGHT for y in re.findall(r'<text x="[\d.]+" y="([\d.]+)" text-anchor="start"', crowded))


def test_shares_stop_at_one_hundred_percent():
    groups = [BarGroup("model forward", (60.0, 40.000001)), BarGroup("model step", (70.0, 30.0))]
    svg = stacked_bar_chart("shares", "% of profiled time", ("gemm", "other"), groups, y_max=100.0)
    ticks = [float(value) for value in re.findall(r'text-anchor="end" font-size="11">([\d.]+)<', svg)]
    assert max(ticks) == 100.0
