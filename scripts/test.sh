#!/usr/bin/env bash
# Set up (idempotent) with the test extra and run the whole test suite. Extra arguments go to pytest.
# Chromium and chromedriver for the site's browser tests are installed where this can (scripts/install_browser.sh);
# where it cannot, those tests skip and the run's last line counts them and says how to install the browser.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
bash scripts/install_browser.sh || printf 'test: the browser could not be installed; its tests will say so\n' >&2
# Two worker processes (pytest-xdist), each test file on one of them so a module's fixtures run once: 12-15 minutes
# on a 2-core host (CI, December 2026). `-n 0` among the extra arguments runs it in one process, more slowly.
exec "${ADVISOR_VENV:-.venv}/bin/python" -m pytest -q -n 2 --dist loadfile "$@"
