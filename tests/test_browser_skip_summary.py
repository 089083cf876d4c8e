"""The run's last line counts the browser tests skipped for a missing Chromium and says how to install it; a run
with no such skip ends as pytest ends it. Checked on small generated test modules run with this suite's conftest."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

TESTS = Path(__file__).resolve().parent


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    """A scratch folder holding this suite's conftest and the module that names the skip reason."""
    pytester.makeconftest((TESTS / "conftest.py").read_text(encoding="utf-8"))
    pytester.makepyfile(browser_skip=(TESTS / "browser_skip.py").read_text(encoding="utf-8"))
    return pytester


def test_the_last_line_counts_the_browser_skips_and_says_how_to_install(suite: pytest.Pytester):
    suite.makepyfile(
        test_pages="""
        import pytest
        from browser_skip import MISSING_BROWSER

        @pytest.fixture(scope="module")
        def browser():
            pytest.skip(MISSING_BROWSER)

        def test_home(browser): pass
        def test_search(browser): pass
        def test_in_the_body():
            pytest.skip(MISSING_BROWSER)
        def test_other_skip():
            pytest.skip("no GPU here")
        def test_plain(): pass
    """
    )
    result = suite.runpytest("-q", "-p", "no:randomly")
    result.assert_outcomes(passed=1, skipped=4)
    last = result.outlines[-1]
    assert last.startswith("3 browser tests were skipped: Chromium and chromedriver are missing")
    assert "bash scripts/install_browser.sh" in last and "apt-get install chromium chromium-driver" in last


def test_no_line_when_no_browser_test_skipped(suite: pytest.Pytester):
    suite.makepyfile(
        test_pages="""
        import pytest

        def test_plain(): pass
        def test_other_skip():
            pytest.skip("no GPU here")
    """
    )
    result = suite.runpytest("-q", "-p", "no:randomly")
    result.assert_outcomes(passed=1, skipped=1)
    assert "browser" not in result.stdout.str()
    assert "1 passed, 1 skipped" in result.outlines[-1]
