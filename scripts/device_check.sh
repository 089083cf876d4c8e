#!/usr/bin/env bash
# The accelerator paths, run once on the day a device is lent: unattended, at most ~8 minutes.
#
#   bash scripts/device_check.sh [OUT_DIR]        (default: device-check-<UTC time>/)
#
# 1. `advisor env --json` (what torch, the driver and the GPUs report);
# 2. every default probe on --device cuda (events, L2 flush, allocator peaks, forced SDPA backends,
#    Triton JIT tiles, _scaled_mm fp8, CUDA graphs, the transfers pipeline) within a 300 s budget;
# 3. the scaling probe with NCCL (RCCL on ROCm) on the GPUs present, within 90 s;
# 4. the Triton kernels compiled ahead of time for this GPU's target (registers, shared memory, spills);
# 5. a checklist of what ran, what skipped and why (scripts/device_check.py), also as checklist.md.
# Each step has a timeout; none prompts; a failed step is reported and the next one still runs.
set -uo pipefail
cd "$(dirname "$0")/.."
# The interpreter: ADVISOR_PYTHON (a machine's own Python that already holds torch, with advisor's missing
# dependencies on PYTHONPATH), else the virtual environment's. A symbolic link to a venv's python does not work:
# Python finds its venv from the path it was started by, so a link elsewhere loses the venv's packages.
PYTHON="${ADVISOR_PYTHON:-${ADVISOR_VENV:-.venv}/bin/python}"
OUT="${1:-device-check-$(date -u +%Y%m%dT%H%M%SZ)}"
DEVICE="${ADVISOR_CHECK_DEVICE:-cuda}"  # tests run it on cpu
PROBE_BUDGET="${ADVISOR_CHECK_BUDGET:-300}"
SCALING_BUDGET="${ADVISOR_CHECK_SCALING_BUDGET:-90}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1

step() {  # step NAME SECONDS COMMAND...: run with a timeout, log to OUT/NAME.log, record the exit code
  local name=$1 seconds=$2
  shift 2
  echo "== $name (at most ${seconds}s)"
  timeout --kill-after=10 "$seconds" "$@" >"$OUT/$name.log" 2>&1 </dev/null
  echo $? >"$OUT/$name.rc"
}

step env 60 "$PYTHON" -m advisor env --json
cp "$OUT/env.log" "$OUT/env.json" 2>/dev/null || true
step probes $((PROBE_BUDGET + 60)) "$PYTHON" -m advisor probe --device "$DEVICE" --budget "$PROBE_BUDGET" --out "$OUT/probes.evidence.json"
GPUS=$("$PYTHON" -c "import torch; print(torch.cuda.device_count() if torch.cuda.is_available() else 0)" 2>/dev/null || echo 0)
if [ "$DEVICE" = "cpu" ]; then NPROC=2; else NPROC=$(( GPUS > 0 ? GPUS : 1 )); fi
step scaling $((SCALING_BUDGET + 60)) "$PYTHON" -m advisor probe scaling --device "$DEVICE" --nproc "$NPROC" --budget "$SCALING_BUDGET" --out "$OUT/scaling.evidence.json"
# This GPU's compile target (sm_90 for an H100/H200, gfx942 for an MI300X); every target on a CPU-only run.
TARGET=$("$PYTHON" -c "
import torch
if torch.cuda.is_available():
    if torch.version.hip:
        print(torch.cuda.get_device_properties(0).gcnArchName.split(':')[0])
    else:
        major, minor = torch.cuda.get_device_capability(0)
        print(f'sm_{major}{minor}')
" 2>/dev/null)
case "$TARGET" in
  sm_80|sm_90|sm_100|gfx942) step kernels 180 "$PYTHON" bench/bench_kernel_targets.py --target "$TARGET" ;;
  "") step kernels 300 "$PYTHON" bench/bench_kernel_targets.py ;;
  *) echo "== kernels: $TARGET is not among the compiled targets (sm_80, sm_90, sm_100, gfx942)"; step kernels 300 "$PYTHON" bench/bench_kernel_targets.py ;;
esac
"$PYTHON" scripts/device_check.py "$OUT" | tee "$OUT/checklist.md"
