"""Generating the pages from records (no MkDocs): tables, review states, tier rings, problems, escaping."""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import re
from html.parser import HTMLParser
from pathlib import Path

from advisor.site.catalog import build_catalog
from advisor.site.generate import FolderWriter, generate_site
from advisor.site.record_body import indent_nested_lists, neutralize_html
from advisor.site.rendered import RENDERED_MARK

from site_records import HOSTILE_DECIDER, OLD_INDENT_RECORD, TODAY, RecordsFixture


def _generate(records_dir: Path, out: Path, today: dt.date = TODAY):
    writer = FolderWriter(out)
    return generate_site(records_dir, writer, today=today), writer


def test_home_table_lists_every_record_newest_first(site_records: RecordsFixture, tmp_path: Path):
    report, _ = _generate(site_records.records_dir, tmp_path)
    home = (tmp_path / "index.md").read_text()
    rows = [line for line in home.splitlines() if line.startswith("| [000")]
    assert [row[3:7] for row in rows] == ["0004", "0003", "0002", "0001"]
    assert report.records == 4 and not report.problems
    assert "**4 decisions**: 3 proposed, 1 superseded." in home
    assert "(decisions/0002-nvidia-serving-from-cpu-proxy-evidence.md)" in home
    assert not [line for line in home.splitlines() if line.startswith("#")]  # the page's own title heads it


def test_review_states_follow_the_date(site_records: RecordsFixture):
    early = build_catalog(site_records.records_dir, dt.date(2026, 12, 1))
    late = build_catalog(site_records.records_dir, dt.date(2027, 4, 1))
    state = lambda catalog: {item.record.id: item.review_state for item in catalog.records}  # noqa: E731
    assert state(early) == {1: "closed", 2: "scheduled", 3: "scheduled", 4: "scheduled"}
    assert state(late) == {1: "closed", 2: "overdue", 3: "due-soon", 4: "scheduled"}


def test_reviews_page_sorts_overdue_first(site_records: RecordsFixture, tmp_path: Path):
    _generate(site_records.records_dir, tmp_path, today=dt.date(2027, 4, 1))
    reviews = (tmp_path / "reviews.md").read_text()
    overdue, soon, later = (reviews.index(f"## {name}") for name in ("Overdue (1)", "Due within 60 days (1)", "Later (1)"))
    assert overdue < reviews.index("0002-nvidia") < soon < reviews.index("0003-script") < later < reviews.index("0004-x86")
    assert "0001-x86" not in reviews  # superseded: no review
    assert "overdue by 30 days" in reviews


def test_record_page_links_history_charts_and_evidence(site_records: RecordsFixture, tmp_path: Path):
    _, writer = _generate(site_records.records_dir, tmp_path)
    old = (tmp_path / "decisions" / "0001-x86-serving-stack-first-try.md").read_text()
    assert old.startswith(RENDERED_MARK)  # rendered here, taken by MkDocs as it is
    assert 'Superseded by <a href="0004-x86-serving-stack-revised.md">0004: x86 serving stack, revised</a>' in old
    assert "<th>Version</th><th>Commit</th><th>Message</th>" in old and "records: 0004 supersedes 0001" in old
    new = (tmp_path / "decisions" / "0004-x86-serving-stack-revised.md").read_text()
    assert ('<th scope="row">Supersedes</th><td><a href="0001-x86-serving-stack-first-try.md">0001: x86 serving stack, '
            "first try</a></td>") in new
    charts = re.findall(r'<img alt="[^"]*" class="advisor-chart" src="\.\./(charts/[0-9a-f]{16}-[^"]+\.svg)">', new)
    assert {Path(chart).stem[17:] for chart in charts} >= {"gemm-tflops", "attention-time", "dynamic-latency"}
    for chart in charts:
        assert (tmp_path / chart).read_text().startswith("<svg")
    evidence = "evidence/0004-x86-serving-stack-revised.evidence.json"
    assert f'href="../{evidence}"' in new and evidence in writer.written
    assert hashlib.sha256((tmp_path / evidence).read_bytes()).hexdigest() in (site_records.records_dir / "0004-x86-serving-stack-revised.md").read_text()
    assert '<h2 id="decision-outcome">Decision Outcome<a class="headerlink" href="#decision-outcome"' in new  # the body's Markdown


def test_evidence_page_tables_are_html_with_markdown_headings(site_records: RecordsFixture, tmp_path: Path):
    _generate(site_records.records_dir, tmp_path)
    page = (tmp_path / "decisions" / "0004-x86-serving-stack-revised-evidence.md").read_text()
    assert page.startswith(RENDERED_MARK) and "search:\n  exclude: true" in page
    assert '<h3 id="gemm">GEMM<a class="headerlink" href="#gemm" title="Permanent link">&para;</a></h3>' in page
    assert "<thead>\n<tr><th>implementation</th><th>dtype</th>" in page and "<li>best: torch.matmul" in page
    assert 'Back to the record: <a href="0004-x86-serving-stack-revised.md">0004</a>' in page
    assert "advisorblock" not in page  # every placeholder replaced


def test_tier_view_rings_only_live_decisions(site_records: RecordsFixture, tmp_path: Path):
    _generate(site_records.records_dir, tmp_path)
    tiers = (tmp_path / "tiers.md").read_text()
    tier1 = tiers.split("## Tier 2")[0]
    assert "[`cublas`](knowledge-base.md#cublas)" in tier1 and "0002-nvidia" in tier1
    assert "0001-x86" not in tiers  # superseded decisions are not current
    assert (tmp_path / "tiers-radar.svg").read_text().count("<circle") >= 4


def test_hostile_text_is_escaped_in_every_page(site_records: RecordsFixture, tmp_path: Path):
    _generate(site_records.records_dir, tmp_path)
    for page in tmp_path.rglob("*.md"):
        text = page.read_text()
        assert "<script>" not in text and "<img src=x" not in text and "</title>" not in text, page
        chart_image = re.compile(r'<img alt="[^"<>]*" class="advisor-chart" src="[^"<>]*\.svg">')
        assert all(chart_image.fullmatch(tag) for tag in re.findall(r"<img\b[^>]*>", text)), page  # only charts
    hostile_page = next(p for p in sorted((tmp_path / "decisions").glob("0003-*.md")) if not p.stem.endswith("-evidence")).read_text()
    assert "&lt;script&gt;window.__advisorPwned" in hostile_page  # the title, in the page's heading
    assert html.escape(HOSTILE_DECIDER) in hostile_page  # a decider, in the facts table


def test_raw_html_in_a_hand_edited_body_is_neutralized():
    body = 'Text <b onclick="x()">hi</b> and `<code>` stays\n```\n<script>kept in a fence</script>\n```\n<script>alert(1)</script>'
    out = neutralize_html(body)
    assert "&lt;b onclick" in out and "`<code>`" in out and "<script>kept in a fence</script>" in out
    assert out.endswith("&lt;script>alert(1)&lt;/script>")


def test_only_a_closed_fence_keeps_html_as_code():
    closed = "```python\n<b>code</b>\n```"
    assert neutralize_html(closed) == closed
    unclosed = "```\n<script>alert(1)</script>"  # Python-Markdown reads an unclosed fence as text
    assert neutralize_html(unclosed) == "```\n&lt;script>alert(1)&lt;/script>"
    fence_like = "```<img src=x onerror=alert(1)>\n<svg onload=alert(2)>\n```"  # not an opening fence
    assert "<img" not in neutralize_html(fence_like) and "<svg" not in neutralize_html(fence_like)


def test_malformed_record_and_altered_evidence_are_reported_and_skipped(records_copy: Path, tmp_path: Path):
    (records_copy / "0009-broken.md").write_text("---\nid: 9\ntitle: [unclosed\n---\n# Broken\n")
    evidence = next(records_copy.glob("0002-*.evidence.json"))
    evidence.write_text(evidence.read_text().replace('"cpu"', '"cpu" ', 1))
    report, _ = _generate(records_copy, tmp_path / "out")
    problems = {problem.path.name: problem.problem for problem in report.problems}
    assert "front matter is not valid YAML" in problems["0009-broken.md"]
    assert "sha256 differs" in problems[evidence.name]
    assert report.records == 4  # the rest still build
    page = next(p for p in (tmp_path / "out" / "decisions").glob("0002-*.md") if not p.stem.endswith("-evidence-evidence")).read_text()
    assert '<th scope="row">Evidence files</th><td>-</td>' in page and "No chart" in page


def test_an_empty_records_folder_builds_a_home_page(tmp_path: Path):
    report, _ = _generate(tmp_path / "none", tmp_path / "out")
    assert report.records == 0 and "No decision records yet" in (tmp_path / "out" / "index.md").read_text()


def test_nested_lists_are_indented_four_spaces_a_level():
    two = "Intro\n\n* a\n  - a.1\n    + a.1.1\n      more of a.1.1\n  - a.2\n* b\n\n1. one\n  - one.1\n\nAfter"
    four = "Intro\n\n* a\n    - a.1\n        + a.1.1\n            more of a.1.1\n    - a.2\n* b\n\n1. one\n    - one.1\n\nAfter"
    assert indent_nested_lists(two) == four
    assert indent_nested_lists(four) == four  # what the template writes now is left as it is
    untouched = "Text\n\n    - in a code block\n\n```\n* a\n  - in a fence\n```\n"
    assert indent_nested_lists(untouched) == untouched


def test_a_record_with_two_space_nesting_keeps_it_on_its_page(site_records: RecordsFixture, tmp_path: Path):
    _generate(site_records.records_dir, tmp_path)
    record = next(site_records.records_dir.glob(f"{OLD_INDENT_RECORD:04d}-*.md"))
    page = (tmp_path / "decisions" / f"{record.stem}.md").read_text()
    nested = [line for line in record.read_text().splitlines() if line.startswith("  - ")]
    assert nested and _items_inside_items(page) == len(nested)


def _items_inside_items(page_html: str) -> int:
    """How many list items of the HTML sit in a list inside another list item."""

    class Counter(HTMLParser):
        depth, nested = 0, 0

        def handle_starttag(self, tag: str, attrs: object) -> None:
            if tag in ("ul", "ol"):
                self.depth += 1
            elif tag == "li" and self.depth >= 2:
                self.nested += 1

        def handle_endtag(self, tag: str) -> None:
            if tag in ("ul", "ol"):
                self.depth -= 1

    counter = Counter()
    counter.feed(page_html)
    return counter.nested
