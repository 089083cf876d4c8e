"""Real MkDocs builds with the project's mkdocs.yml: pages, charts, links, search index, strict failures, CLI."""

from __future__ import annotations

import datetime as dt
import html
import json
import os
import re
from html.parser import HTMLParser
import shutil
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import unquote, urlsplit

import pytest

from advisor.cli import app
from advisor.site.build import SiteError, build_site
from advisor.site.mkdocs_plugin import advisor_extra, site_settings

from site_records import CONFIG, REPO_ROOT, TODAY, RecordsFixture


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.targets: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.targets.append(value)


def broken_links(site: Path) -> list[str]:
    """Relative href/src targets of every page that do not exist in the built site."""
    broken = []
    for page in site.rglob("*.html"):
        if page.name == "404.html":
            continue  # served at any depth, so MkDocs gives it root-absolute links
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for target in parser.targets:
            parts = urlsplit(target)
            if parts.scheme or parts.netloc or not parts.path or target.startswith(("#", "mailto:")):
                continue
            resolved = (page.parent / unquote(parts.path)).resolve()
            if parts.path.endswith("/") or resolved.is_dir():
                resolved = resolved / "index.html"
            if not resolved.exists():
                broken.append(f"{page.relative_to(site)} -> {target}")
    return broken


def _evidence_page(folder: Path) -> bool:
    """A record's evidence page (`<slug>-evidence`), told from a record whose own slug ends in 'evidence'."""
    return folder.name.endswith("-evidence") and (folder.parent / folder.name.removesuffix("-evidence")).exists()


def test_every_page_chart_and_download_is_built(built_site: Path, site_records: RecordsFixture):
    for page in ("index.html", "reviews/index.html", "tiers/index.html", "knowledge-base/index.html", "cli/index.html"):
        assert (built_site / page).is_file(), page
    for number in site_records.titles:
        folder = next(f for f in (built_site / "decisions").glob(f"{number:04d}-*") if not _evidence_page(f))
        assert "<h2" in (built_site / "decisions" / f"{folder.name}-evidence" / "index.html").read_text()
        assert (folder / "index.html").is_file()
        charts = re.findall(r'<img alt="[^"]*" class="advisor-chart" src="\.\./\.\./(charts/[^"]+\.svg)"', (folder / "index.html").read_text())
        assert len(charts) >= 4 and all((built_site / chart).is_file() for chart in charts)
        assert (built_site / "evidence" / f"{folder.name}.evidence.json").is_file()
    assert (built_site / "tiers-radar.svg").is_file()


def test_evidence_pages_hold_their_tables_and_stay_out_of_search(built_site: Path, site_records: RecordsFixture):
    index = json.loads((built_site / "search" / "search_index.json").read_text())
    locations = {doc["location"].split("#")[0] for doc in index["docs"]}
    for number in site_records.titles:
        folder = next(f for f in (built_site / "decisions").glob(f"{number:04d}-*") if not _evidence_page(f))
        page = (built_site / "decisions" / f"{folder.name}-evidence" / "index.html").read_text()
        assert "<table>" in page and "<th>" in page and "<td>" in page  # its evidence tables
        assert f"decisions/{folder.name}/" in locations  # the record page is searchable
        assert f"decisions/{folder.name}-evidence/" not in locations  # its table of figures is not


def test_no_internal_link_is_broken(built_site: Path):
    assert broken_links(built_site) == []


def test_search_index_finds_titles_option_ids_and_hardware(built_site: Path, site_records: RecordsFixture):
    index = json.loads((built_site / "search" / "search_index.json").read_text())
    text_of = {doc["location"]: doc["title"] + " " + doc["text"] for doc in index["docs"]}
    record_docs = {location: text for location, text in text_of.items() if location.startswith("decisions/0002-")}
    assert record_docs and any("cublas" in text for text in record_docs.values())
    assert any("nvidia-gpu" in text for text in record_docs.values())
    assert any("NVIDIA serving from CPU proxy evidence" in text for text in record_docs.values())


def _command_paths(command: object, path: str = "advisor") -> list[str]:
    """'advisor', 'advisor kb', 'advisor kb list', ...: every group and command of the CLI."""
    subcommands = getattr(command, "commands", {})
    return [path] + [found for name, sub in subcommands.items() for found in _command_paths(sub, f"{path} {name}")]


def test_cli_reference_documents_every_command(built_site: Path):
    from advisor.cli.reference import command

    page = (built_site / "cli" / "index.html").read_text()
    paths = _command_paths(command)
    assert len(paths) > 20 and "advisor kb audit" in paths
    for path in paths:  # mkdocs-click gives each group and command a heading of its own
        assert f'id="{path.replace(" ", "-")}"' in page, path
    assert "--strict" in page


def test_the_guide_pages_are_built_and_in_the_navigation(built_site: Path):
    home = (built_site / "index.html").read_text()
    for source in sorted((REPO_ROOT / "site" / "guide").glob("*.md")):
        built = built_site / "guide" / source.stem / "index.html"
        assert built.is_file() and f'href="guide/{source.stem}/"' in home, source.name
        title = html.escape(source.read_text(encoding="utf-8").splitlines()[0].removeprefix("# "), quote=False)
        assert re.search(rf"<h1[^>]*>{re.escape(title)}", built.read_text(encoding="utf-8")), source.name


def test_knowledge_page_lists_every_candidate_with_sources(built_site: Path):
    from advisor.knowledge.loader import load_knowledge_base

    knowledge = load_knowledge_base()
    page = (built_site / "knowledge-base" / "index.html").read_text()
    for candidate in knowledge.candidates:
        assert f'id="{candidate.id}"' in page
    for family in knowledge.families():
        assert f'id="platform-{family}"' in page
    # sources are links (vendor pages, or the method page's section) with the date they were checked
    assert 'href="https://docs.nvidia.com/cuda/cublas/index.html"' in page
    assert 'href="../method/#flash-attention"' in page and "2026-12-01" in page


def test_method_page_is_published_with_its_anchors(built_site: Path):
    from advisor.knowledge.method import method_anchors

    page = (built_site / "method" / "index.html").read_text()
    assert "<h1" in page and "How advisor decides" in page
    for anchor in method_anchors():
        assert f'id="{anchor}"' in page, anchor


def test_hostile_title_is_text_in_the_html(built_site: Path):
    for page in built_site.rglob("*.html"):
        html = page.read_text()
        assert "<script>window.__advisorPwned" not in html and '<img src=x onerror' not in html, page
    page = next((built_site / "decisions").glob("0003-*/index.html")).read_text()
    assert "&lt;script&gt;window.__advisorPwned = 1&lt;/script&gt;" in page


def test_malformed_record_warns_by_default_and_fails_strict(records_copy: Path, tmp_path: Path, runner):
    (records_copy / "0009-broken.md").write_text("---\nid: 9\ntitle: Broken\n---\n# no date\n")
    result = build_site(CONFIG, out=tmp_path / "lenient", records_dir=records_copy, today=TODAY)
    assert any("0009-broken.md" in warning and "date" in warning for warning in result.warnings)
    assert len([p for p in (tmp_path / "lenient" / "decisions").glob("*/index.html") if not _evidence_page(p.parent)]) == 4
    outcome = runner.invoke(app, ["site", "build", "--strict", "--config", str(CONFIG), "--records-dir", str(records_copy),
                                  "--out", str(tmp_path / "strict")])
    assert outcome.exit_code == 2
    assert outcome.output.startswith("error: strict build failed") and "0009-broken.md" in outcome.output
    assert len(outcome.output.strip().splitlines()) == 1 and "Traceback" not in outcome.output
    assert not (tmp_path / "strict").exists()  # nothing half-written


def test_broken_link_in_a_record_fails_strict(records_copy: Path, tmp_path: Path):
    record = next(records_copy.glob("0002-*.md"))
    record.write_text(record.read_text() + "\nSee [the old plan](0042-gone.md).\n")
    with pytest.raises(SiteError, match="0042-gone.md"):
        build_site(CONFIG, out=tmp_path / "out", records_dir=records_copy, strict=True, today=TODAY)


def test_a_link_to_a_missing_anchor_warns_and_a_present_one_does_not(records_copy: Path, tmp_path: Path):
    record = next(records_copy.glob("0002-*.md"))
    evidence_page = f"{record.stem}-evidence.md"
    record.write_text(record.read_text() + f"\nSee [GEMM]({evidence_page}#gemm) and [nothing]({evidence_page}#no-such-table).\n")
    result = build_site(CONFIG, out=tmp_path / "out", records_dir=records_copy, today=TODAY)
    anchors = [warning for warning in result.warnings if "anchor" in warning]
    assert len(anchors) == 1 and "#no-such-table" in anchors[0] and record.stem in anchors[0]
    page = (tmp_path / "out" / "decisions" / record.stem / "index.html").read_text()
    assert f'href="../{record.stem}-evidence/#gemm"' in page  # a source path made the page's URL, anchor kept


def test_record_page_has_the_table_of_contents_of_its_headings(built_site: Path, site_records: RecordsFixture):
    folder = next(f for f in (built_site / "decisions").glob("0004-*") if not _evidence_page(f))
    page = (folder / "index.html").read_text()
    toc = page[page.index('data-md-component="toc"'):]
    entries = [entry for entry in ("#decision-outcome", "#tier-1-official-full-stack-primary", "#evidence-charts",
                                   "#revision-history") if f'href="{entry}" class="md-nav__link"' in toc]
    assert len(entries) == 4  # the body's headings, nested ones included, and the generator's own
    assert toc.index("#decision-outcome") < toc.index("#tier-1-official-full-stack-primary") < toc.index("#revision-history")


def test_failed_build_keeps_the_previous_site(records_copy: Path, tmp_path: Path):
    out = tmp_path / "out"
    build_site(CONFIG, out=out, records_dir=records_copy, today=TODAY)
    before = sorted(path.relative_to(out) for path in out.rglob("*"))
    (records_copy / "0009-broken.md").write_text("no front matter\n")
    with pytest.raises(SiteError):
        build_site(CONFIG, out=out, records_dir=records_copy, strict=True, today=TODAY)
    assert sorted(path.relative_to(out) for path in out.rglob("*")) == before
    assert not [path for path in tmp_path.iterdir() if path.name.endswith(".building")]


def test_refuses_to_replace_a_folder_it_did_not_build(tmp_path: Path, runner):
    (tmp_path / "precious.txt").write_text("keep me")
    outcome = runner.invoke(app, ["site", "build", "--config", str(CONFIG), "--out", str(tmp_path)])
    assert outcome.exit_code == 2 and "not a site advisor built" in outcome.output
    assert (tmp_path / "precious.txt").read_text() == "keep me"


@pytest.mark.parametrize(("arguments", "message"), [
    (["--config", "missing.yml"], "--config missing.yml: no such file (the MkDocs configuration, mkdocs.yml)"),
    (["--records-dir", "no/such/folder"], "--records-dir no/such/folder: not a folder"),
    (["--today", "2027-13-01"], "--today: '2027-13-01' is not a date; use YYYY-MM-DD"),
])
def test_bad_options_give_one_line_errors(arguments, message, runner, tmp_path):
    outcome = runner.invoke(app, ["site", "build", "--out", str(tmp_path / "out"), *arguments])
    assert outcome.exit_code == 2 and outcome.output.strip() == f"error: {message}"


def test_builds_without_a_mkdocs_yml_from_the_packaged_settings(records_copy: Path, tmp_path: Path, monkeypatch, runner):
    monkeypatch.chdir(records_copy.parent)  # a team's own repository: records/ and no mkdocs.yml
    outcome = runner.invoke(app, ["site", "build", "--strict", "--today", "2027-06-01", "--json"])
    assert outcome.exit_code == 0, outcome.output
    out = Path(json.loads(outcome.output)["out"])
    assert out == records_copy.parent / "site-build"
    assert len([p for p in (out / "decisions").glob("*/index.html") if not _evidence_page(p.parent)]) == 4
    assert (out / "stylesheets" / "advisor.css").is_file() and broken_links(out) == []


def test_without_mkdocs_yml_or_records_the_error_says_what_to_pass(tmp_path: Path, monkeypatch, runner):
    monkeypatch.chdir(tmp_path)
    outcome = runner.invoke(app, ["site", "build"])
    assert outcome.exit_code == 2 and "pass --records-dir or --config" in outcome.output


def test_the_projects_own_records_build_strictly(tmp_path: Path):
    # Only the committed records: a user's own `scripts/run.sh` adds an uncommitted one beside them.
    from git import Repo

    committed = Repo(REPO_ROOT).git.ls_files("records").splitlines()
    copy = tmp_path / "records"
    copy.mkdir()
    for name in committed:
        shutil.copy2(REPO_ROOT / name, copy / Path(name).name)
    records = sorted(copy.glob("[0-9][0-9][0-9][0-9]-*.md"))
    assert records
    result = build_site(CONFIG, out=tmp_path / "site", records_dir=copy, strict=True)
    assert result.warnings == []
    for record in records:
        page = tmp_path / "site" / "decisions" / record.stem / "index.html"
        assert page.is_file() and 'class="advisor-chart"' in page.read_text(), record.name  # its charts (links checked below)
    assert broken_links(tmp_path / "site") == []


def test_the_build_passes_its_settings_through_the_config_not_the_environment(tmp_path: Path):
    config_file = str(tmp_path / "mkdocs.yml")
    kept = {"advisor": {"records_dir": "decisions", "note": "the team's own"}, "social": []}
    extra = {**kept, "advisor": advisor_extra(kept, tmp_path / "elsewhere", dt.date(2027, 6, 1))}
    assert extra["advisor"]["note"] == "the team's own" and kept["advisor"]["records_dir"] == "decisions"
    settings = site_settings(SimpleNamespace(config_file_path=config_file, extra=extra))
    assert settings.records_dir == (tmp_path / "elsewhere").resolve() and settings.today == dt.date(2027, 6, 1)
    # A plain `mkdocs build`: the config's own records_dir, beside the config file, and today.
    plain = site_settings(SimpleNamespace(config_file_path=config_file, extra=kept))
    assert plain.records_dir == tmp_path / "decisions" and plain.today == dt.date.today()
    assert site_settings(SimpleNamespace(config_file_path=config_file, extra={})).records_dir == tmp_path / "records"


def test_a_build_leaves_the_environment_as_it_was(records_copy: Path, tmp_path: Path):
    before = dict(os.environ)
    build_site(CONFIG, out=tmp_path / "out", records_dir=records_copy, today=TODAY)
    assert dict(os.environ) == before
