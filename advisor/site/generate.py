"""Generate the site's pages from a records folder, through a writer (MkDocs' virtual files, or a folder).

`generate_site` is the one entry point; `advisor/site/mkdocs_plugin.py` calls it from inside `mkdocs build`
(through mkdocs-gen-files' script, mkdocs_pages.py), so `advisor site build` and a plain `mkdocs build` agree.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from advisor.knowledge.loader import load_knowledge_base
from advisor.knowledge.models import KnowledgeBase
from advisor.site.catalog import Catalog, EvidenceFile, SiteProblem, build_catalog
from advisor.site.evidence_charts import Chart
from advisor.site.evidence_views import EvidenceViews
from advisor.site.knowledge_pages import METHOD_PAGE, knowledge_page, method_page
from advisor.site.pages import (
    CLI_PAGE, RINGS, chart_path, evidence_page, evidence_page_name, home_section, record_page, reviews_page,
    tier_rings, tiers_page,
)
from advisor.site.radar import radar_svg
from advisor.site.rendered import MarkdownSettings, PageConverter
from probes.harness.collector import spared_by_collector

HOME_PAGE = "index.md"
RADAR_FILE = "tiers-radar.svg"
STYLESHEET = Path(__file__).parent / "assets" / "advisor.css"


class SiteWriter(Protocol):
    """Where generated files go: paths are relative to the docs folder, with forward slashes."""

    def write_text(self, path: str, text: str) -> None: ...

    def append_text(self, path: str, text: str) -> None: ...

    def copy_file(self, path: str, source: Path) -> None: ...


@dataclass
class FolderWriter:
    """A SiteWriter into a plain folder (tests, previews); `append_text` adds to a file already there."""

    root: Path
    written: list[str] = field(default_factory=list)

    def _target(self, path: str) -> Path:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        self.written.append(path)
        return target

    def write_text(self, path: str, text: str) -> None:
        self._target(path).write_text(text, encoding="utf-8")

    def append_text(self, path: str, text: str) -> None:
        with self._target(path).open("a", encoding="utf-8") as handle:
            handle.write(text)

    def copy_file(self, path: str, source: Path) -> None:
        self._target(path).write_bytes(source.read_bytes())


@dataclass(frozen=True)
class GenerationReport:
    """What one generation wrote and what it had to leave out."""

    records: int
    charts: int  # chart files written: one per chart of each distinct evidence content
    problems: list[SiteProblem]


def charts_of(item_evidence: list[EvidenceFile], views: EvidenceViews | None = None) -> list[tuple[EvidenceFile, Chart]]:
    """(evidence file, chart) for every chart of every readable evidence file of a record; `views` holds
    the charts already drawn for the site (evidence shared by records is drawn once)."""
    views = views if views is not None else EvidenceViews()
    return [(file, chart) for file in item_evidence for chart in views.charts(file)]


def write_tier_view(catalog: Catalog, knowledge: KnowledgeBase, writer: SiteWriter) -> None:
    """tiers.md and its radar picture."""
    rings = tier_rings(catalog)
    ring_options = [(heading.split(":")[0], list(rings[key])) for key, heading, _ in RINGS]
    layer_of = {candidate.id: candidate.layer.value for candidate in knowledge.candidates}
    layers = list(dict.fromkeys(candidate.layer.value for candidate in knowledge.candidates))
    has_options = any(options for _, options in ring_options)
    if has_options:
        writer.write_text(RADAR_FILE, radar_svg(ring_options, layer_of, layers))
    writer.write_text("tiers.md", tiers_page(catalog, knowledge, RADAR_FILE if has_options else None))


def generate_site(records_dir: Path, writer: SiteWriter, *, today: dt.date | None = None,
                  knowledge: KnowledgeBase | None = None, markdown: MarkdownSettings | None = None) -> GenerationReport:
    """Write every generated page, chart and evidence download; problems are reported, not raised.

    Record and evidence pages are rendered here with `markdown` (the MkDocs build's extensions; the packaged
    config's when None), the other pages are left to MkDocs as Markdown."""
    # The catalog holds every record's parsed evidence until the pages are written: in a 500-record site with
    # evidence of its own per record, ~2.2 million objects the collector tracks. Its full passes, one each time
    # the heap grew by a quarter, made reading it take 6.0 s against 1.3 s with the collector off; frozen, the
    # catalog also stays out of the passes that rendering the pages sets off.
    with spared_by_collector(lambda: build_catalog(records_dir, today or dt.date.today())) as catalog:
        return _write_site(catalog, writer, knowledge or load_knowledge_base(), markdown)


def _write_site(catalog: Catalog, writer: SiteWriter, knowledge: KnowledgeBase, markdown: MarkdownSettings | None) -> GenerationReport:
    """generate_site's writing, from the catalog read."""
    converter = PageConverter(markdown or MarkdownSettings.packaged())
    writer.append_text(HOME_PAGE, "\n" + home_section(catalog))
    chart_files: set[str] = set()
    views = EvidenceViews()
    for item in catalog.records:
        for file in item.evidence:
            writer.copy_file(f"evidence/{file.name}", file.path)
        charts = charts_of(item.evidence, views)
        for file, chart in charts:
            path = chart_path(file, chart)
            if path not in chart_files:  # evidence shared by records: its charts written once
                chart_files.add(path)
                writer.write_text(path, chart.svg)
        writer.write_text(item.page, record_page(item, catalog, charts, converter))
        if item.record.front.evidence:  # the record body links its evidence page
            writer.write_text(evidence_page_name(item), evidence_page(item, converter, views))
    writer.write_text("reviews.md", reviews_page(catalog))
    write_tier_view(catalog, knowledge, writer)
    writer.write_text("knowledge-base.md", knowledge_page(knowledge))
    writer.write_text(METHOD_PAGE, method_page())
    writer.write_text("cli.md", CLI_PAGE)
    writer.copy_file("stylesheets/advisor.css", STYLESHEET)
    return GenerationReport(records=len(catalog.records), charts=len(chart_files), problems=catalog.problems)
