"""The checklist of scripts/device_check.sh: each accelerator path, whether it ran, skipped (and why) or is absent.

    python scripts/device_check.py OUT_DIR

Reads the step exit codes (OUT_DIR/<step>.rc), the evidence files the steps wrote and the kernel
step's log, and prints Markdown: one line per step, then one per accelerator path with its case
counts and the commonest reason a case did not run.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from probes.models import Evidence, EvidenceSchemaError, ProbeCase  # noqa: E402

STEPS = ("env", "probes", "scaling", "kernels")
EVIDENCE_FILES = ("probes.evidence.json", "scaling.evidence.json")


@dataclass(frozen=True)
class AcceleratorPath:
    """One accelerator path and how to find its cases in the evidence."""

    label: str
    matches: Callable[[ProbeCase], bool]


def _impl(probe: str, *prefixes: str) -> Callable[[ProbeCase], bool]:
    return lambda case: case.key.probe == probe and case.key.implementation.startswith(prefixes)


PATHS: tuple[AcceleratorPath, ...] = (
    AcceleratorPath(
        "device events + L2 flush (every timed accelerator case)",
        lambda case: bool(case.timing and case.timing.cache_flushed),
    ),
    AcceleratorPath("GEMM: vendor library (torch.matmul)", _impl("gemm", "torch.matmul")),
    AcceleratorPath("GEMM: Triton JIT tiles", _impl("gemm", "triton.")),
    AcceleratorPath("GEMM: torch.compile", _impl("gemm", "torch.compile")),
    AcceleratorPath("GEMM: fp8 torch._scaled_mm", _impl("gemm", "torch._scaled_mm")),
    AcceleratorPath("attention: SDPA flash", _impl("attention", "sdpa.flash")),
    AcceleratorPath("attention: SDPA memory-efficient", _impl("attention", "sdpa.efficient")),
    AcceleratorPath("attention: SDPA cuDNN", _impl("attention", "sdpa.cudnn")),
    AcceleratorPath("attention: Triton fused", _impl("attention", "triton")),
    AcceleratorPath("dynamic shapes: CUDA graphs", _impl("dynamic", "cudagraph.")),
    AcceleratorPath("INT8", _impl("int8", "")),
    AcceleratorPath("layout: channels-last", _impl("layout", "")),
    AcceleratorPath("fusion: torch.compile launches", _impl("fusion", "")),
    AcceleratorPath("transfers: pinned copies and the 3-stream pipeline", _impl("transfers", "")),
    AcceleratorPath("scaling: all-reduce (NCCL / RCCL) and DDP", _impl("scaling", "")),
)


def step_lines(folder: Path) -> list[str]:
    """One line per step: its exit code (124: timed out) or that it did not run."""
    lines = []
    for step in STEPS:
        rc_file = folder / f"{step}.rc"
        if not rc_file.is_file():
            lines.append(f"- [ ] {step}: did not run")
            continue
        code = rc_file.read_text().strip()
        meaning = {"0": "ok", "124": "timed out", "137": "killed after its timeout"}.get(code, f"exit code {code}")
        lines.append(f"- [{'x' if code == '0' else ' '}] {step}: {meaning} (log: {step}.log)")
    return lines


def load_cases(folder: Path) -> tuple[list[ProbeCase], list[str]]:
    """Every case of the evidence files present, and a line for each file missing or unreadable."""
    cases: list[ProbeCase] = []
    problems = []
    for name in EVIDENCE_FILES:
        path = folder / name
        if not path.is_file():
            problems.append(f"- {name}: not written")
            continue
        try:
            cases.extend(Evidence.load(path).cases)
        except EvidenceSchemaError as error:
            problems.append(f"- {name}: unreadable ({error})")
    return cases, problems


def path_line(path: AcceleratorPath, cases: Sequence[ProbeCase]) -> str:
    """'- [x] LABEL: 12 ok, 3 skipped (most: REASON)' or '- [ ] LABEL: no case'."""
    chosen = [case for case in cases if path.matches(case)]
    if not chosen:
        return f"- [ ] {path.label}: no case"
    statuses = Counter(case.status for case in chosen)
    counts = ", ".join(f"{count} {status}" for status, count in sorted(statuses.items()))
    reasons = Counter((case.reason or "")[:110] for case in chosen if case.status != "ok" and case.reason)
    why = f" (most: {reasons.most_common(1)[0][0]})" if reasons else ""
    return f"- [{'x' if statuses.get('ok') else ' '}] {path.label}: {counts}{why}"


def checklist(folder: Path) -> str:
    """The whole Markdown checklist for one device-check folder."""
    cases, problems = load_cases(folder)
    lines = [
        "# Device check",
        "",
        f"Folder: `{folder}`",
        "",
        "## Steps",
        "",
        *step_lines(folder),
        "",
        "## Accelerator paths",
        "",
    ]
    lines += [path_line(path, cases) for path in PATHS]
    if problems:
        lines += ["", "## Evidence files", "", *problems]
    kernels = folder / "kernels.log"
    if kernels.is_file():
        tail = kernels.read_text(errors="replace").strip().splitlines()[-25:]
        lines += ["", "## Triton kernels compiled for this target", "", "```", *tail, "```"]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        sys.stderr.write("usage: python scripts/device_check.py OUT_DIR (the folder device_check.sh wrote)\n")
        return 2
    sys.stdout.write(checklist(Path(argv[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
