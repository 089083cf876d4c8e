#!/usr/bin/env bash
# scripts/device_check.sh on a lent GPU machine whose own Python already holds torch and triton but not advisor's
# other dependencies; they travel as wheels in .whl/ (Python 3.12 manylinux wheels of pydantic, pydantic-core,
# annotated-types, typing-inspection, GitPython, gitdb, smmap, nh3 and torchao, fetched here with `pip download`).
#
#   OUT=<folder that comes back> bash scripts/device_lent.sh
#
# Everything is bounded so that one 10-minute call holds it: the preflight (versions) 60 s, device_check.sh 420 s
# in all (probes 150 s, scaling 40 s). At most 8 files land in $OUT: checklist.md, the two evidence files, the
# versions and a tarball of every step's log, each written as soon as it exists.
set -uo pipefail
cd "$(dirname "$0")/.."
: "${OUT:?set OUT to the folder that comes back}"
SITE=$(mktemp -d)
trap 'rm -rf "$SITE"' EXIT
if compgen -G ".whl/*.whl" >/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target "$SITE" .whl/*.whl || exit 3
fi
export PYTHONPATH="$SITE:$PWD" ADVISOR_PYTHON=python3 PYTHONUNBUFFERED=1
export ADVISOR_CHECK_BUDGET="${ADVISOR_CHECK_BUDGET:-150}" ADVISOR_CHECK_SCALING_BUDGET="${ADVISOR_CHECK_SCALING_BUDGET:-40}"
timeout 30 nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$OUT/versions.txt" 2>&1
timeout --kill-after=5 60 python3 -c "import torch, triton; print('torch', torch.__version__, 'cuda', torch.version.cuda, \
'triton', triton.__version__, 'gpus', torch.cuda.device_count())" >>"$OUT/versions.txt" 2>&1 || echo "preflight failed: $?" >>"$OUT/versions.txt"
cat "$OUT/versions.txt"
CHECK=$(mktemp -d)
timeout --kill-after=10 420 bash scripts/device_check.sh "$CHECK"
echo "device_check.sh exit $?"
cp "$CHECK"/checklist.md "$CHECK"/probes.evidence.json "$CHECK"/scaling.evidence.json "$OUT/" 2>/dev/null
tar -C "$CHECK" -czf "$OUT/steps.tar.gz" .
rm -rf "$CHECK"
