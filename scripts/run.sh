#!/usr/bin/env bash
# Set up (idempotent) and run advisor's main job with its defaults. Extra arguments go to the command.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# --no-commit: a first run on a fresh clone writes records/NNNN-*.md for review without touching the
# clone's git history; run `advisor assess` yourself (or `git add records/`) to commit a decision.
exec "${ADVISOR_VENV:-.venv}/bin/advisor" assess --yes --no-commit "$@"
