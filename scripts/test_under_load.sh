#!/usr/bin/env bash
# The test suite on a busy machine: two CPU-burning processes run beside `scripts/test.sh` (as on a shared
# CI host), and stop with it. Extra arguments go to pytest, as with scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
burners=()
for _ in 1 2; do
  python3 -c "while True: pass" &
  burners+=("$!")
done
trap 'kill "${burners[@]}" 2>/dev/null || true' EXIT
bash scripts/test.sh "$@"
