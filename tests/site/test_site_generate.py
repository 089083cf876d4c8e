"""Generating the pages from records (no MkDocs): tables, review states, tier rings, problems, escaping."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from pathlib import Path

from advisor.site.catalog import build_catalog
from advisor.site.generate import FolderWriter, generate_site
from advisor.site.record_body import indent_nested_lists, neutralize_html

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
    assert "Superseded by [0004: x86 serving stack, revised](0004-x86-serving-stack-revised.md)" in old
    assert "| Version | Commit | Message |" in old and "records: 0004 supersedes 0001" in old
    new = (tmp_path / "decisions" / "0004-x86-serving-stack-revised.md").read_text()
    assert ('<th scope="row">Supersedes</th><td markdown="span">[0001: x86 serving stack, first try]'
            "(0001-x86-serving-stack-first-try.md)</td>") in new
    charts = re.findall(r"\]\((0004-x86-serving-stack-revised/[^)]+\.svg)\)", new)
    assert {Path(chart).stem.removeprefix("evidence-") for chart in charts} >= {"gemm-tflops", "attention-time", "dynamic-latency"}
    for chart in charts:
        assert (tmp_path / "decisions" / chart).read_text().startswith("<svg")
    evidence = "evidence/0004-x86-serving-stack-revised.evidence.json"
    assert f"(../{evidence})" in new and evidence in writer.written
    assert hashlib.sha256((tmp_path / evidence).read_bytes()).hexdigest() in (site_records.records_dir / "0004-x86-serving-stack-revised.md").read_text()


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
        assert "<script>" not in text and "<img" not in text and "</title>" not in text, page
    hostile_page = next(p for p in sorted((tmp_path / "decisions").glob("0003-*.md")) if not p.stem.endswith("-evidence")).read_text()
    assert "&lt;script&gt;window.\\_\\_advisorPwned" in hostile_page
    assert HOSTILE_DECIDER.replace("<", "&lt;").replace(">", "&gt;") in hostile_page.replace("\\", "")


def test_raw_html_in_a_hand_edited_body_is_neutralized():
    body = 'Text <b onclick="x()">hi</b> and `<code>` stays\n```\n<script>kept in a fence</script>\n```\n<script>alert(1)</script>'
    out = neutralize_html(body)
    assert "&lt;b onclick" in out and "`<code>`" in out and "<script>kept in a fence</script>" in out
    assert out.endswith("&lt;script>alert(1)&lt;/script>")


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
    assert '<th scope="row">Evidence</th><td markdown="span">-</td>' in page and "No chart" in page


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
    nested = [line.strip() for line in record.read_text().splitlines() if line.startswith("  - ")]
    assert nested and all(f"    {line}" in page.splitlines() for line in nested)
