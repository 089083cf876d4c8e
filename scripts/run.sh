#!/usr/bin/env bash
# Set up (idempotent) and run advisor's main job with its defaults. Extra arguments go to the command.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec "${ADVISOR_VENV:-.venv}/bin/advisor" env "$@"
