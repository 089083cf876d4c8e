"""Hostile record text on the published site: a table of payloads in titles, deciders and a hand-edited
record body, built into a site and opened in headless Chromium. No dialog opens, no element carries an
event handler, no link or source is a javascript: or data: URL, and no payload sets its flag."""

from __future__ import annotations

import datetime as dt
import functools
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from git import Repo
from site_records import CONFIG, CPU_SUITE, TODAY
from test_site_browser import _QuietHandler, browser  # noqa: F401 - the module's browser fixture, reused

from advisor.profile import Profile
from advisor.recommendation.engine import recommend
from advisor.records.decision import write_decision
from probes.models import Evidence

selenium = pytest.importorskip("selenium", reason="the test extra installs selenium")
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

# (where it goes, payload): each calls alert(n) or sets window.__pwned<n> when it runs.
TITLE_PAYLOADS = [
    "Pwn { tabindex=1 autofocus=1 onfocus=alert(1) }",
    "<script>alert(2)</script>",
    "<img src=x onerror=alert(3)>",
    "{: onclick=alert(4) } title",
    "</title><svg onload=alert(5)>",
]
DECIDER_PAYLOADS = ["Bob { onclick=alert(6) }", "<iframe src=javascript:alert(7)>", "Eve {: autofocus onfocus=alert(8) }"]
BODY_PAYLOADS = [
    "![x](y){ onerror=alert(9) }",
    "Paragraph\n{: onmouseover=alert(10) autofocus tabindex=1 onfocus=alert(10) }",
    "```<img src=x onerror=alert(11)>",
    "[x](javascript:alert(12))",
    '<a href="javascript:alert(13)">x</a>',
    "<svg onload=alert(14)>",
    "<details open ontoggle=alert(15)>x</details>",
    "[x](JaVaScRiPt:alert(16))",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxNyk8L3NjcmlwdD4=)",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(18)>",
    "<style>body{background:url(javascript:alert(19))}</style>",
    '<object data="javascript:alert(20)"></object>',
    '<embed src="javascript:alert(21)">',
    '<form action="javascript:alert(22)"><button autofocus>x</button></form>',
    "<input autofocus onfocus=alert(23)>",
    "<video><source onerror=alert(24)></video>",
    "*x*{ onmouseover=alert(25) autofocus tabindex=1 onfocus=alert(25) }",
    "## Heading { onclick=alert(26) }",
    '<div style="background:url(javascript:alert(27))">x</div>',
    '<a href="&#106;avascript:alert(28)">x</a>',
    "![x](javascript:alert(29))",
    '<meta http-equiv="refresh" content="0;url=javascript:alert(30)">',
    "<script>window.__pwned31 = 1</script>",
    '<img src=x onerror="window.__pwned32 = 1">',
    "[click](javascript:window.__pwned33=1){ autofocus }",
]
DIALOG_WAIT_S = 1.0


def test_the_payload_table_is_large_enough():
    assert len(TITLE_PAYLOADS) + len(DECIDER_PAYLOADS) + len(BODY_PAYLOADS) >= 25


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A records repository whose titles, deciders and one hand-edited body carry every payload, built."""
    from advisor.site.build import build_site

    root = tmp_path_factory.mktemp("hostile") / "project"
    repo = Repo.init(root)
    with repo.config_writer() as config:
        config.set_value("user", "name", "Hostile")
        config.set_value("user", "email", "hostile@example.com")
    suite = Evidence.load(CPU_SUITE)
    profile = Profile(model_type="dense-transformer", hardware="x86-cpu", workload="inference", team_skill="framework")
    answer = recommend(profile, [suite])
    records = root / "records"
    written = []
    for index, title in enumerate(TITLE_PAYLOADS):
        deciders = [DECIDER_PAYLOADS[index % len(DECIDER_PAYLOADS)]]
        written.append(write_decision(answer, [suite], records_dir=records, title=title, deciders=deciders,
                                      date=dt.date(2026, 1, 1 + index)))
    edited = written[0].record
    edited.write_text(edited.read_text(encoding="utf-8") + "\n" + "\n\n".join(BODY_PAYLOADS) + "\n", encoding="utf-8")
    out = tmp_path_factory.mktemp("hostile-site") / "site"
    build_site(CONFIG, out=out, records_dir=records, strict=False, today=TODAY)
    return out


@pytest.fixture(scope="module")
def hostile_url(hostile_site: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(hostile_site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


ACTIVE_CONTENT = """
const found = [];
for (const element of document.querySelectorAll('article *')) {
  for (const attribute of element.attributes) {
    const name = attribute.name.toLowerCase(), value = attribute.value.trim().toLowerCase();
    if (name.startsWith('on')) found.push(element.tagName + ' ' + name);
    if (['href', 'src', 'action', 'data', 'formaction'].includes(name) && /^(javascript|data|vbscript):/.test(value))
      found.push(element.tagName + ' ' + name + '=' + value);
  }
  if (['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'FORM', 'INPUT', 'META', 'STYLE', 'SVG'].includes(element.tagName.toUpperCase()))
    found.push(element.tagName);
}
const flags = Object.keys(window).filter(key => key.startsWith('__pwned'));
return found.concat(flags);
"""


def _pages(site: Path) -> list[str]:
    pages = sorted(str(page.parent.relative_to(site)) for page in (site / "decisions").glob("*/index.html"))
    return ["", "reviews", "tiers"] + pages


def test_no_payload_runs_on_any_page(browser, hostile_site: Path, hostile_url: str):  # noqa: F811
    dialogs, active = [], {}
    for page in _pages(hostile_site):
        browser.get(f"{hostile_url}/{page}/" if page else f"{hostile_url}/")
        try:
            WebDriverWait(browser, DIALOG_WAIT_S).until(expected_conditions.alert_is_present())
            alert = browser.switch_to.alert
            dialogs.append((page, alert.text))
            alert.dismiss()
        except TimeoutException:
            pass
        found = browser.execute_script(ACTIVE_CONTENT)
        if found:
            active[page] = found
    assert dialogs == [] and active == {}, (dialogs, active)


def test_the_payloads_are_shown_as_text(browser, hostile_site: Path, hostile_url: str):  # noqa: F811
    page = next(p for p in _pages(hostile_site) if p.startswith("decisions/0001-") and not p.endswith("-evidence"))
    browser.get(f"{hostile_url}/{page}/")
    text = browser.find_element("css selector", "article").text
    assert "Pwn { tabindex=1 autofocus=1 onfocus=alert(1) }" in text  # the title, as typed
    assert "Bob { onclick=alert(6) }" in text  # the decider, as typed
