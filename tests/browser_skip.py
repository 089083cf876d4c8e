"""Why the site's browser tests skip where Chromium is missing, and the line that ends such a run, so that a skip
is never silent (tests/site/test_site_browser.py skips with `MISSING_BROWSER`; tests/conftest.py prints the line)."""

from __future__ import annotations

from collections.abc import Iterable

MISSING_BROWSER = "Chromium and chromedriver are not installed (scripts/install_browser.sh installs them)"
INSTALL_HINT = (
    "install them with `bash scripts/install_browser.sh`, or on Debian `apt-get install chromium chromium-driver`"
)


def browser_skips(skipped: Iterable[object]) -> int:
    """How many of pytest's skipped reports skipped for the missing browser."""
    count = 0
    for report in skipped:
        longrepr = getattr(report, "longrepr", None)  # a skip's is (file, line, "Skipped: <reason>")
        if isinstance(longrepr, tuple) and len(longrepr) == 3 and MISSING_BROWSER in str(longrepr[2]):
            count += 1
    return count


def summary_line(count: int) -> str:
    """The run's last line when `count` browser tests were skipped."""
    tests = "test was" if count == 1 else "tests were"
    return f"{count} browser {tests} skipped: Chromium and chromedriver are missing; {INSTALL_HINT}"
