#!/usr/bin/env bash
# Create the project's virtual environment (.venv) and install advisor into it. Idempotent: a second
# run with the same pyproject.toml and extras only checks and returns.
#
#   scripts/setup.sh            # the tool
#   scripts/setup.sh test       # the tool and its test dependencies
#
# How torch is chosen (torch is never force-reinstalled):
#   1. torch already importable from the Python that creates the venv (e.g. a CUDA or ROCm build you
#      installed): the venv is created with --system-site-packages and that torch is used as is.
#   2. otherwise, an NVIDIA GPU answers `nvidia-smi -L`: the default PyPI torch wheel (a CUDA build).
#   3. otherwise (CPU only): torch==$ADVISOR_CPU_TORCH (2.13.0), which on these machines is the CPU
#      wheel kept on local disk. Elsewhere, point ADVISOR_TORCH_INDEX_URL at PyTorch's CPU-only wheel
#      index so that pip cannot pull a multi-GB CUDA build onto a CPU-only machine.
# Environment knobs: PYTHON (interpreter, default python3), ADVISOR_VENV (default .venv),
# ADVISOR_CPU_TORCH, ADVISOR_TORCH_INDEX_URL.
set -euo pipefail
cd "$(dirname "$0")/.."

python_bin=${PYTHON:-python3}
venv=${ADVISOR_VENV:-.venv}
extras=${1:-}
cpu_torch=${ADVISOR_CPU_TORCH:-2.13.0}

say() { printf 'setup: %s\n' "$*" >&2; }
quiet_pip() {
    # This workplace's pip config names mirror folders that do not all exist; drop that noise only.
    "$venv/bin/python" -m pip --disable-pip-version-check "$@" 2> >(grep -v "^WARNING: Location '" >&2)
}

if [ ! -x "$venv/bin/python" ]; then
    if "$python_bin" -c "import torch" >/dev/null 2>&1; then
        say "using the torch already installed for $python_bin ($("$python_bin" -c 'import torch; print(torch.__version__)'))"
        "$python_bin" -m venv --system-site-packages "$venv"
    else
        "$python_bin" -m venv "$venv"
    fi
fi

if ! "$venv/bin/python" -c "import torch" >/dev/null 2>&1; then
    if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
        say "NVIDIA GPU found: installing the default (CUDA) torch wheel"
        quiet_pip install -q torch
    else
        say "no GPU found: installing the CPU build torch==$cpu_torch"
        quiet_pip install -q ${ADVISOR_TORCH_INDEX_URL:+--index-url "$ADVISOR_TORCH_INDEX_URL"} "torch==$cpu_torch"
    fi
fi

target="."
[ -n "$extras" ] && target=".[$extras]"
stamp="$venv/.advisor-install-stamp"
project_hash=$(sha256sum pyproject.toml | cut -d' ' -f1)
wanted="$project_hash $extras"
installed=$(cat "$stamp" 2>/dev/null || true)
# An install with extras also satisfies a plain one: run.sh after test.sh installs nothing.
if [ "$installed" != "$wanted" ] && ! { [ -z "$extras" ] && [ "${installed%% *}" = "$project_hash" ]; }; then
    say "installing advisor ($target) into $venv"
    quiet_pip install -q -e "$target"
    printf '%s' "$wanted" > "$stamp"
fi
