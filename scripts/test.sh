#!/usr/bin/env bash
# Set up (idempotent) with the test extra and run the whole test suite. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
exec "${ADVISOR_VENV:-.venv}/bin/python" -m pytest -q "$@"
