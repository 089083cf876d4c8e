"""Each generated page: home table, reviews and tier view as Markdown for MkDocs; each record's page and evidence
page rendered to HTML here (rendered.py), because there are hundreds of them (knowledge_pages.py: the knowledge
base and the method).

Every value that came from a record file passes through `md_escape` (HTML entities, Markdown markup escaped)
or `code_or_text` in Markdown, and through `rendered.text` / `code_or_text_html` in generated HTML; record
bodies go through `record_body_markdown` (record_body.py), so hand-edited HTML in a record shows as text
instead of running. Page titles given to MkDocs are HTML-escaped, because Material prints `page.meta.title`
unescaped in the page's <title> and header.
"""

from __future__ import annotations

import html
import re
from collections import Counter, defaultdict
from collections.abc import Sequence

from advisor.knowledge.models import KnowledgeBase
from advisor.markdown import md_escape, safe_url
from advisor.records.models import RECORD_STATUSES
from advisor.site import rendered
from advisor.site.catalog import DUE_SOON_DAYS, Catalog, EvidenceFile, SiteRecord
from advisor.site.evidence_charts import Chart
from advisor.site.evidence_views import EvidenceViews
from advisor.site.record_body import record_body_markdown
from advisor.site.rendered import PageConverter, PageSource
from probes.environment.family import environment_family

OPTION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$")
RINGS: tuple[tuple[str, str, str], ...] = (
    ("tier1", "Tier 1: official full stack", "Adopt: the vendor's own stack, chosen as the primary path."),
    ("tier2", "Tier 2: deep self-development", "Trial: hand-written kernels and compilers where they pay off."),
    ("tier3", "Tier 3: multi-platform", "Assess: portable options that run on several hardware families."),
    ("rejected", "Rejected", "Hold: considered and rejected, with reasons in each decision."),
)


def page_meta(title: str, searchable: bool = True) -> dict[str, object]:
    """A page's MkDocs metadata: its HTML-escaped title (Material prints it unescaped); a page that is not
    `searchable` is left out of Material's search index (and its HTML is not parsed for it)."""
    meta: dict[str, object] = {"title": html.escape(title)}
    if not searchable:
        meta["search"] = {"exclude": True}
    return meta


def page_front_matter(title: str, searchable: bool = True) -> str:
    """The front matter of a Markdown page (page_meta)."""
    return "---\n" + rendered.meta_yaml(page_meta(title, searchable)) + "---\n\n"


def code_or_text(value: str) -> str:
    """An option id as inline code when it is a plain identifier, else escaped text."""
    return f"`{value}`" if OPTION_ID.match(value) else md_escape(value)


def status_badge(status: str) -> str:
    """A coloured status label (the status is one of RECORD_STATUSES, validated on load)."""
    safe = status if status in RECORD_STATUSES else "unknown"
    return f'<span class="advisor-badge advisor-badge--{safe}">{safe}</span>'


def review_text(item: SiteRecord) -> str:
    """The review date and how far it is, e.g. '2027-11-29 (in 365 days)' or '... (overdue by 3 days)'."""
    date = item.record.front.review_by.isoformat()
    days = item.days_to_review
    if item.review_state == "closed":
        return f"{date} (closed)"
    if item.review_state == "overdue":
        return f'{date} <span class="advisor-overdue">overdue by {-days} day{"s" if days != -1 else ""}</span>'
    return f"{date} (in {days} day{'s' if days != 1 else ''})"


def record_link(item: SiteRecord, from_folder: str = "") -> str:
    """A Markdown link to the record's page, from a page in `from_folder` ('' or 'decisions')."""
    target = item.page if not from_folder else item.page.removeprefix(f"{from_folder}/")
    return f"[{item.record.id:04d}: {md_escape(item.record.front.title)}]({target})"


def _hardware(item: SiteRecord) -> str:
    return md_escape(item.record.front.profile.get("hardware", "-"))


def evidence_standing(item: SiteRecord) -> str:
    """'on target', 'proxy (x86-cpu)' (measured on another hardware family than the record's target) or 'none'."""
    front = item.record.front
    measured, target = front.environment.hardware, front.profile.get("hardware")
    if not front.evidence:
        return "none"
    return "on target" if measured == target else f"proxy ({measured or 'unknown hardware'})"


def confidence_text(item: SiteRecord) -> str:
    """The record's confidence, '-' for a record written before advisor kept it in the front matter."""
    confidence = item.record.front.confidence
    return "-" if confidence is None else f"{confidence:.2f}"


VERDICT_PREFIX = "**Verdict:**"


def split_verdict(body: str) -> tuple[str | None, str]:
    """The record body's one-line verdict (advisor writes it under the title) and the body without it."""
    lines = body.splitlines()
    found = next((index for index, text in enumerate(lines) if text.startswith(VERDICT_PREFIX)), None)
    if found is None:
        return None, body
    return lines[found], "\n".join(lines[:found] + lines[found + 1 :])


def home_section(catalog: Catalog) -> str:
    """The decision table appended to site/index.md: counts by status, then every record, newest first.

    No heading of its own: the page's title (site/index.md's, else the navigation's "Decisions") already says it."""
    counts: Counter[str] = Counter(item.record.front.status for item in catalog.records)
    count_text = ", ".join(f"{counts[status]} {status}" for status in RECORD_STATUSES if counts[status])
    states = Counter(item.review_state for item in catalog.records)
    lines = [
        f"**{len(catalog.records)} decision{'s' if len(catalog.records) != 1 else ''}**"
        + (f": {count_text}." if count_text else "."),
        f"Reviews as of {catalog.today.isoformat()}: {states['overdue']} overdue, {states['due-soon']} due within "
        f"{DUE_SOON_DAYS} days ([all reviews](reviews.md)).", "",
    ]
    if not catalog.records:
        lines.append("No decision records yet: `advisor assess` writes the first one.")
        return "\n".join(lines) + "\n"
    lines += ["| Decision | Status | Tier 1 | Target hardware | Confidence (evidence) | Decided | Review by |",
              "| --- | --- | --- | --- | --- | --- | --- |"]
    for item in catalog.records:
        front = item.record.front
        tier1 = ", ".join(code_or_text(option) for option in front.tier1) or "-"
        lines.append(f"| {record_link(item)} | {status_badge(front.status)} | {tier1} | {_hardware(item)} "
                     f"| {confidence_text(item)} ({md_escape(evidence_standing(item))}) "
                     f"| {front.date.isoformat()} | {review_text(item)} |")
    return "\n".join(lines) + "\n"


def _size_text(size: int) -> str:
    return f"{size / 1024**2:.1f} MB" if size >= 1024**2 else f"{size / 1024:.0f} KB"


def _linked_records(numbers: Sequence[int], catalog: Catalog) -> str:
    known = catalog.by_id
    links = [record_link(known[number], "decisions") if number in known else f"{number:04d} (not in this site)"
             for number in numbers]
    return ", ".join(links) or "-"


def code_or_text_html(value: str) -> str:
    """code_or_text for an HTML block: an option id as inline code, else escaped text."""
    return rendered.code(value) if OPTION_ID.match(value) else rendered.text(value)


def _record_link_html(item: SiteRecord) -> str:
    """An HTML link to a record's page from another record's page (both in decisions/)."""
    return rendered.link(item.page.removeprefix("decisions/"), rendered.text(f"{item.record.id:04d}: {item.record.front.title}"))


def _linked_records_html(numbers: Sequence[int], catalog: Catalog) -> str:
    known = catalog.by_id
    links = [_record_link_html(known[number]) if number in known else f"{number:04d} (not in this site)" for number in numbers]
    return ", ".join(links) or "-"


def record_facts(item: SiteRecord, catalog: Catalog) -> list[tuple[str, str]]:
    """The facts table's rows: (name, HTML value), every value from the record escaped."""
    front = item.record.front
    environment = front.environment
    measured = ", ".join(rendered.text(value) for value in (environment.hardware, environment.device) if value) or "-"
    versions = ", ".join(f"{name} {rendered.text(value)}" for name, value in
                         (("torch", environment.torch), ("CUDA", environment.cuda), ("cuDNN", environment.cudnn),
                          ("CANN", environment.cann), ("Triton", environment.triton)) if value)
    downloads = "<br>".join(
        f"{rendered.link(f'../evidence/{safe_url(file.name)}', rendered.text(file.name))} "
        f"({_size_text(file.size_bytes)}, sha256 {rendered.code(file.sha256[:12])})"
        for file in item.evidence
    ) or "-"
    tiers = {key: ", ".join(code_or_text_html(option) for option in getattr(front, key)) or "-" for key, _, _ in RINGS}
    return [
        ("Status", f"{status_badge(front.status)} (version {front.version})"),
        ("Decided", front.date.isoformat()),
        ("Review by", review_text(item)),
        ("Decision makers", ", ".join(rendered.text(name) for name in front.decision_makers) or "-"),
        ("Target hardware", rendered.text(front.profile.get("hardware", "-"))),
        ("Confidence", confidence_text(item)),
        ("Evidence", rendered.text(_standing_sentence(item))),
        ("Measured on", f"{measured}{'; ' + versions if versions else ''}"),
        ("Tier 1", tiers["tier1"]), ("Tier 2", tiers["tier2"]), ("Tier 3", tiers["tier3"]), ("Rejected", tiers["rejected"]),
        ("Supersedes", _linked_records_html(front.supersedes, catalog)),
        ("Superseded by", _linked_records_html(front.superseded_by, catalog)),
        ("Evidence files", downloads),
    ]


def _standing_sentence(item: SiteRecord) -> str:
    standing, target = evidence_standing(item), item.record.front.profile.get("hardware", "the target")
    if standing.startswith("proxy"):
        return (f"{standing}: measured on another hardware family than the target {target}; its speeds decide "
                "nothing there")
    return {"none": "none: decided from the profile and the knowledge base", "on target": f"on target ({target})"}[standing]


def record_page(item: SiteRecord, catalog: Catalog, charts: Sequence[tuple[EvidenceFile, Chart]], converter: PageConverter) -> str:
    """One record's page, rendered: facts table, the record body, its charts and its git history."""
    front = item.record.front
    page = PageSource()
    page.markdown(f"# {front.id:04d}: {md_escape(front.title)}", "")
    verdict, body = split_verdict(item.record.body)
    if verdict is not None:
        page.markdown(verdict, "")
    if front.superseded_by:
        page.markdown('!!! warning "Superseded"', f"    Superseded by {_linked_records(front.superseded_by, catalog)}.", "")
    page.html(rendered.row_header_table(record_facts(item, catalog)))
    page.markdown("", record_body_markdown(body).rstrip(), "", "## Evidence charts", "")
    if not charts:
        page.markdown("No chart: the evidence holds no timed GEMM, attention, dynamic-shape or INT8 cases.", "")
    current_file = None
    several_files = len({file.name for file, _ in charts}) > 1
    for file, chart in charts:
        if file.name != current_file and several_files:
            page.markdown(f"### {md_escape(file.name)}", "")
        current_file = file.name
        proxy = _proxy_label(file, front.profile.get("hardware"))
        page.html(rendered.image(f"../{chart_path(file, chart)}", proxy + chart.title, "advisor-chart")
                  + f"\n<p><em>{rendered.prose(proxy + chart.caption)}</em></p>")
    page.markdown("## Revision history", "")
    if not item.in_git:
        page.markdown("The records folder is not in a git repository: no history.")
    elif not item.history:
        page.markdown("Not committed yet.")
    else:
        page.html(rendered.table(("Date", "Version", "Commit", "Message"), [
            (version.date.date().isoformat(), rendered.text(version.version or "-"), rendered.code(version.sha[:10]),
             rendered.text(version.message.splitlines()[0] if version.message else ""))
            for version in item.history
        ]))
    return rendered.rendered_page(page_meta(f"{front.id:04d}: {front.title}"), converter.convert(page))


def _proxy_label(file: EvidenceFile, target: object) -> str:
    """'PROXY, measured on x86-cpu (Intel Xeon), not the target nvidia-gpu: ' for a chart of evidence from another
    hardware family; empty for the target's own."""
    if file.evidence is None:
        return ""
    family = environment_family(file.evidence.environment)
    if family == target:
        return ""
    return f"PROXY, measured on {family or 'other hardware'} ({file.evidence.device_name()}), not the target {target}: "


def evidence_page_name(item: SiteRecord) -> str:
    """`decisions/<slug>-evidence.md`: beside the record page, which the record body links to."""
    return f"decisions/{item.slug}-evidence.md"


def evidence_page(item: SiteRecord, converter: PageConverter, views: EvidenceViews | None = None) -> str:
    """Every evidence table and finding of a record's evidence files (the record itself keeps a summary), rendered;
    `views` holds the tables already made for the site (evidence shared by records is tabulated once)."""
    views = views if views is not None else EvidenceViews()
    front = item.record.front
    page = PageSource()
    page.markdown(f"# {front.id:04d}: evidence of {md_escape(front.title)}", "",
                  f"Back to the record: [{front.id:04d}]({item.slug}.md).", "")
    if not item.evidence:
        page.markdown("The evidence files this record names are not in the records folder.", "")
    for file in item.evidence:
        page.markdown(f"## {md_escape(file.name)}", "")
        if file.evidence is None:
            page.markdown("Unreadable, or its sha256 does not match the record: no table.", "")
            continue
        for table in views.tables(file):
            page.markdown(f"### {md_escape(table.title)}", "")
            page.html(rendered.table([rendered.text(cell) for cell in table.header],
                                     [[rendered.text(cell) for cell in row] for row in table.rows]))
            if table.findings:
                page.html(rendered.bullets(rendered.text(finding) for finding in table.findings))
    # Left out of search: tables of figures, summarised on the record page, which search finds; parsing
    # them for the index took about a tenth of a 500-record build.
    return rendered.rendered_page(page_meta(f"{front.id:04d}: evidence", searchable=False), converter.convert(page))


def chart_path(file: EvidenceFile, chart: Chart) -> str:
    """`charts/<sha256 prefix>-<chart>.svg`: named by the evidence's content, so records that share evidence share
    its chart files (one file each, however many records show it)."""
    return f"charts/{file.sha256[:16]}-{chart.name}.svg"


def reviews_page(catalog: Catalog) -> str:
    """Overdue, due soon and later reviews of live records, by date; closed records are left out."""
    live = sorted((item for item in catalog.records if item.review_state != "closed"),
                  key=lambda item: (item.record.front.review_by, item.record.id))
    sections = (("overdue", "Overdue"), ("due-soon", f"Due within {DUE_SOON_DAYS} days"), ("scheduled", "Later"))
    lines = [page_front_matter("Reviews") + "# Reviews", "",
             f"Every live decision is reviewed a year after it was made (`advisor review`). As of {catalog.today.isoformat()}.", ""]
    for state, heading in sections:
        chosen = [item for item in live if item.review_state == state]
        lines += [f"## {heading} ({len(chosen)})", ""]
        if not chosen:
            lines += ["None.", ""]
            continue
        lines += ["| Review by | Decision | Status | Target hardware |", "| --- | --- | --- | --- |"]
        lines += [f"| {review_text(item)} | {record_link(item)} | {status_badge(item.record.front.status)} | {_hardware(item)} |"
                  for item in chosen]
        lines.append("")
    return "\n".join(lines) + "\n"


def tier_rings(catalog: Catalog) -> dict[str, dict[str, list[SiteRecord]]]:
    """ring -> option id -> the live decisions that put the option in that ring."""
    rings: dict[str, dict[str, list[SiteRecord]]] = {key: defaultdict(list) for key, _, _ in RINGS}
    for item in catalog.records:
        if item.review_state == "closed":
            continue
        for key, _, _ in RINGS:
            for option in dict.fromkeys(getattr(item.record.front, key)):
                rings[key][option].append(item)
    return rings


def tiers_page(catalog: Catalog, knowledge: KnowledgeBase, radar_file: str | None) -> str:
    """The technology radar: each option in the tiers that live decisions put it in, with links."""
    names = {candidate.id: candidate.name for candidate in knowledge.candidates}
    rings = tier_rings(catalog)
    lines = [page_front_matter("Tier view") + "# Tier view", "",
             "Which options the live (proposed or accepted) decisions put in tier 1, 2 or 3, or rejected, "
             "in the spirit of a technology radar. An option can sit in several rings: each decision weighs its own "
             "hardware, workload and team.", ""]
    if radar_file:
        lines += [f"![Tier radar]({radar_file}){{ .advisor-chart }}", ""]
    for key, heading, meaning in RINGS:
        options = rings[key]
        lines += [f"## {heading}", "", meaning, ""]
        if not options:
            lines += ["None.", ""]
            continue
        lines += ["| Option | Decisions |", "| --- | --- |"]
        for option in sorted(options, key=lambda option: (-len(options[option]), option)):
            label = f"[`{option}`](knowledge-base.md#{option}) {md_escape(names[option])}" if option in names else code_or_text(option)
            links = ", ".join(record_link(item) for item in options[option])
            lines.append(f"| {label} | {links} |")
        lines.append("")
    return "\n".join(lines) + "\n"


CLI_PAGE = page_front_matter("CLI reference") + """# CLI reference

Generated from the command's own help text at build time (`advisor <command> --help` prints the same).

::: mkdocs-click
    :module: advisor.cli.reference
    :command: command
    :prog_name: advisor
    :depth: 1
    :style: plain
    :list_subcommands: True
"""
