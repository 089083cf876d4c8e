"""The built site in a real headless Chromium (Debian's chromium + chromedriver, driven by Selenium).

Checks what only a browser can: the home table as rendered, charts that load, Material's search
(a web worker over search_index.json), that a `<script>` in a title never runs, and the layout as laid out:
one heading for the decisions, no empty header row, nested reasons indented under their choice, radar labels
that do not overlap and are big enough to read. Screenshots go to $ADVISOR_TEST_ARTIFACTS (default
test-artifacts/) under site/.
"""

from __future__ import annotations

import functools
import os
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from browser_skip import MISSING_BROWSER
from site_records import HOSTILE_TITLE, OLD_INDENT_RECORD, REPO_ROOT, RecordsFixture, crowded_radar

selenium = pytest.importorskip("selenium", reason="the test extra installs selenium")
from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

# Flags from this workplace's notes: run as root, no GPU, and no background traffic to a closed network.
CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                  "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--window-size=1280,1600")
ARTIFACTS = Path(os.environ.get("ADVISOR_TEST_ARTIFACTS", REPO_ROOT / "test-artifacts")) / "site"


def _browser_paths() -> tuple[str, str]:
    browser = next((found for name in ("chromium", "chromium-browser", "google-chrome") if (found := shutil.which(name))), None)
    driver = shutil.which("chromedriver")
    if browser and driver:
        return browser, driver
    if os.environ.get("CI") or os.environ.get("ADVISOR_REQUIRE_BROWSER"):
        pytest.fail(f"{MISSING_BROWSER}; CI (and ADVISOR_REQUIRE_BROWSER=1) must run the browser tests")
    pytest.skip(MISSING_BROWSER)  # counted on the run's last line (tests/conftest.py)


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass


@pytest.fixture(scope="module")
def site_url(built_site: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(built_site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    binary, driver_path = _browser_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    driver.set_page_load_timeout(90)  # generous: suites run on shared, busy hosts
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def _open(browser: webdriver.Chrome, url: str, screenshot: str) -> None:
    try:
        browser.get(url)
    except TimeoutException:  # a renderer starved on a busy host (seen once beside two CPU burners): one more try
        browser.get(url)
    WebDriverWait(browser, 60).until(lambda driver: driver.execute_script("return document.readyState") == "complete")
    browser.save_screenshot(str(ARTIFACTS / f"{screenshot}.png"))


def _page(site_records: RecordsFixture, number: int) -> str:
    return "decisions/" + next(site_records.records_dir.glob(f"{number:04d}-*.md")).stem + "/"


def test_home_table_lists_every_record(browser, site_url: str, site_records: RecordsFixture):
    _open(browser, f"{site_url}/", "home")
    rows = browser.find_elements(By.CSS_SELECTOR, "article table tbody tr")
    assert len(rows) == len(site_records.titles)
    shown = [row.find_element(By.CSS_SELECTOR, "td:nth-child(1) a").text for row in rows]
    assert shown == [f"{number:04d}: {site_records.titles[number]}" for number in sorted(site_records.titles, reverse=True)]
    badges = [badge.text for badge in browser.find_elements(By.CSS_SELECTOR, "article .advisor-badge")]
    assert sorted(badges) == ["proposed", "proposed", "proposed", "superseded"]


def test_record_page_shows_its_charts(browser, site_url: str, site_records: RecordsFixture):
    _open(browser, f"{site_url}/{_page(site_records, 4)}", "record-0004")
    charts = browser.find_elements(By.CSS_SELECTOR, "article img.advisor-chart")
    assert len(charts) >= 4
    widths = browser.execute_script(
        "return Array.from(document.querySelectorAll('article img.advisor-chart')).map(i => i.complete ? i.naturalWidth : -1)")
    assert all(width > 0 for width in widths), widths
    browser.execute_script("arguments[0].scrollIntoView()", charts[0])
    browser.save_screenshot(str(ARTIFACTS / "record-0004-charts.png"))
    assert "Supersedes" in browser.find_element(By.CSS_SELECTOR, "article").text


def test_search_finds_a_record_by_option_id(browser, site_url: str, site_records: RecordsFixture):
    _open(browser, f"{site_url}/", "search-before")
    field = WebDriverWait(browser, 10).until(expected_conditions.element_to_be_clickable((By.CSS_SELECTOR, "input.md-search__input")))
    field.click()  # the header's search box (wide window)
    field.send_keys("cublas")
    target = _page(site_records, 2)

    def found(driver: webdriver.Chrome) -> bool:
        # Read the hrefs in one script call: the result list re-renders on every keystroke, so element
        # handles taken between renders go stale.
        hrefs = driver.execute_script(
            "return Array.from(document.querySelectorAll('.md-search-result__item a')).map(a => a.href)")
        return any(target in href for href in hrefs)

    WebDriverWait(browser, 20).until(found)
    browser.save_screenshot(str(ARTIFACTS / "search-cublas.png"))


@pytest.mark.parametrize("page", ["", "reviews/", "tiers/", "hostile"])
def test_injected_script_in_a_title_does_not_run(browser, site_url: str, site_records: RecordsFixture, page: str):
    path = _page(site_records, 3) if page == "hostile" else page
    _open(browser, f"{site_url}/{path}", f"xss-{page.strip('/') or 'home'}")
    assert browser.execute_script("return typeof window.__advisorPwned") == "undefined"
    assert not browser.find_elements(By.CSS_SELECTOR, "article script, article img[onerror]")
    if page == "hostile":
        assert HOSTILE_TITLE in browser.title  # shown as text
        heading = browser.find_element(By.CSS_SELECTOR, "article h1").text
        assert heading == f"0003: {site_records.titles[3]}"


def test_home_page_names_the_decisions_once(browser, site_url: str):
    _open(browser, f"{site_url}/", "home-headings")
    headings = browser.execute_script(
        "return Array.from(document.querySelectorAll('article h1, article h2, article h3')).map(h => h.textContent.replace('¶', '').trim())")
    assert [heading for heading in headings if "decisions" in heading.lower()] == ["Operator-stack decisions"], headings
    toc = browser.execute_script(
        "return Array.from(document.querySelectorAll('.md-sidebar--secondary .md-nav__link')).map(a => a.textContent.trim())")
    assert "Decisions" not in toc, toc


def test_record_facts_table_has_no_empty_header_row(browser, site_url: str, site_records: RecordsFixture):
    _open(browser, f"{site_url}/{_page(site_records, 4)}", "record-0004-facts")
    rows = browser.execute_script("""
        const table = document.querySelector('article table');
        return Array.from(table.rows).map(row => {
            const box = row.getBoundingClientRect();
            return [box.top, box.height, Array.from(row.cells).map(cell => cell.tagName + ':' + cell.textContent.trim())];
        }).sort((a, b) => a[0] - b[0]);""")
    assert all(height > 0 for _, height, _ in rows)
    cells = [cells for _, _, cells in rows]
    assert all(len(row) == 2 and row[0].startswith("TH:") and row[0] != "TH:" and row[1].startswith("TD:") for row in cells), cells
    assert cells[0][0] == "TH:Status" and cells[-1][0] == "TH:Evidence files"  # the top row is a fact, not an empty header
    assert browser.execute_script("return document.querySelectorAll('article th:empty, article thead:empty').length") == 0


@pytest.mark.parametrize("number", [OLD_INDENT_RECORD, 4])
def test_nested_reasons_stay_nested(browser, site_url: str, site_records: RecordsFixture, number: int):
    record = next(site_records.records_dir.glob(f"{number:04d}-*.md")).read_text()
    nested_lines = [line for line in record.splitlines() if line.startswith(("  - ", "    - ")) and line.strip() != "-"]
    assert nested_lines
    _open(browser, f"{site_url}/{_page(site_records, number)}", f"record-{number:04d}-nested")
    indents = browser.execute_script("""
        return Array.from(document.querySelectorAll('article li li')).map(item => {
            const parent = item.parentElement.closest('li');
            return item.getBoundingClientRect().left - parent.getBoundingClientRect().left;
        });""")
    assert len(indents) == len(nested_lines)  # every reason is an item of its choice's own list
    assert all(indent > 10 for indent in indents), indents  # and is drawn indented under it


_TEXT_BOXES = """
    const svg = document.documentElement, box = svg.viewBox.baseVal;
    const texts = Array.from(document.querySelectorAll('text')).map(text => {
        const b = text.getBBox();
        return {text: text.textContent, x: b.x, y: b.y, w: b.width, h: b.height, size: parseFloat(getComputedStyle(text).fontSize)};
    });
    return {width: box.width, height: box.height, texts: texts};"""


def _label_overlaps(drawing: dict) -> list[str]:
    """Pairs of text elements whose boxes overlap, and texts that reach outside the picture."""
    texts, problems = drawing["texts"], []
    for index, one in enumerate(texts):
        if one["x"] < 0 or one["y"] < 0 or one["x"] + one["w"] > drawing["width"] or one["y"] + one["h"] > drawing["height"]:
            problems.append(f"{one['text']!r} outside the picture")
        for other in texts[index + 1 :]:
            if (one["x"] < other["x"] + other["w"] and other["x"] < one["x"] + one["w"]
                    and one["y"] < other["y"] + other["h"] and other["y"] < one["y"] + one["h"]):
                problems.append(f"{one['text']!r} overlaps {other['text']!r}")
    return problems


def _names(drawing: dict) -> set[str]:
    """The option names of the legend ('cublas (Tier 1)' names cublas)."""
    return {text["text"].split(" (")[0] for text in drawing["texts"]}


def test_tier_radar_labels_are_apart_and_legible(browser, site_url: str, site_records: RecordsFixture):
    _open(browser, f"{site_url}/tiers-radar.svg", "tiers-radar")
    drawing = browser.execute_script(_TEXT_BOXES)
    assert _label_overlaps(drawing) == []
    live = {option for number in (2, 3, 4) for option in site_records.tier1[number]}
    assert live <= _names(drawing), live - _names(drawing)  # every tier-1 option of a live decision is named
    _open(browser, f"{site_url}/tiers/", "tiers")
    scale = browser.execute_script(
        "const img = document.querySelector('article img[src$=\"tiers-radar.svg\"]'); return img.clientWidth / img.naturalWidth")
    smallest = min(text["size"] for text in drawing["texts"]) * scale
    names = min(text["size"] for text in drawing["texts"] if text["text"].split(" (")[0] in live) * scale
    assert smallest >= 9 and names >= 12, (smallest, names)  # CSS pixels on the page


def test_a_crowded_radar_keeps_its_labels_apart(browser, tmp_path: Path):
    svg, options = crowded_radar()
    picture = tmp_path / "crowded-radar.svg"
    picture.write_text(svg)
    browser.get(picture.as_uri())
    browser.save_screenshot(str(ARTIFACTS / "crowded-radar.png"))
    drawing = browser.execute_script(_TEXT_BOXES)
    assert _label_overlaps(drawing) == []
    assert set(options) <= _names(drawing)  # each named in the legend


def test_an_nvidia_record_page_shows_nvidias_reference_figures_with_their_label(browser, site_url: str,
                                                                                 site_records: RecordsFixture):
    _open(browser, f"{site_url}/{_page(site_records, 2)}", "record-0002-reference")
    text = browser.find_element(By.CSS_SELECTOR, "article").text
    assert "Reference: NVIDIA's own measurements on " in text
    assert "(measured by NVIDIA on NVIDIA " in text and "aiconfigurator-core 0.12.0" in text
    _open(browser, f"{site_url}/{_page(site_records, 4)}", "record-0004-no-reference")
    assert "no vendor reference exists for " in browser.find_element(By.CSS_SELECTOR, "article").text
