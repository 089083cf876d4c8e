"""Which of a family's listed devices this machine is, where the Environment says so unambiguously.

- Accelerators: the peak-table rows detection matched (Environment.peaks) against each Device's `peaks` row.
  A row two devices share (Ascend 910B and 910B4 have one) names neither.
- CPUs and Apple silicon: the CPU model string (the Apple chip name) against the patterns below, each
  naming one product line. Arm server CPUs are not matched: /proc/cpuinfo names only the core, and a
  Neoverse V2 is a Graviton4, an NVIDIA Grace or a Google Axion alike.

A machine showing two different devices of the family (an H100 beside an H200) matches none.
"""

from __future__ import annotations

import re

from advisor.knowledge.models import KnowledgeBase
from probes.environment.models import Environment

# (family, pattern on the model string, device id). Each pattern is one product line, by its vendor's numbering.
_NAMED: tuple[tuple[str, str, str], ...] = (
    # 4th Gen Xeon Scalable: Platinum 84xx, Gold 64xx/54xx, Silver 44xx, Bronze 34xx (x3xx is Ice Lake, x5xx Emerald Rapids).
    ("x86-cpu", r"Xeon.*\b(?:Platinum|Gold|Silver|Bronze)\s+[3-9]4\d\d(?!\d)", "xeon-4th-gen-sapphire-rapids"),
    # Xeon 6 P-core lines 6500P, 6700P and 6900P (E-core parts end in E; the entry 6300P line is another core).
    ("x86-cpu", r"Xeon.*\b6[5-9]\d\dP\b", "xeon-6-granite-rapids"),
    # EPYC 9xx4 is the 9004 series (Zen 4), 9xx5 the 9005 series (Zen 5); cloud parts such as 9R14 keep the last digit.
    ("x86-cpu", r"\bEPYC\s+9[0-9A-Z]\d4[A-Z]*\b", "epyc-9004-genoa"),
    ("x86-cpu", r"\bEPYC\s+9[0-9A-Z]\d5[A-Z]*\b", "epyc-9005-turin"),
)
_APPLE_CHIP = re.compile(r"^Apple M(\d+)\b")


def detect_device(environment: Environment, knowledge: KnowledgeBase, family: str) -> str | None:
    """The id of the family's device this machine is, or None when none (or more than one) matches."""
    platform = next((platform for platform in knowledge.platforms if platform.id == family), None)
    if platform is None or not platform.devices:
        return None
    listed = {device.id for device in platform.devices}
    if platform.kind == "cpu":
        found = _named_devices(family, environment.cpu.model_name or "")
    elif family == "apple-silicon":
        found = _apple_devices(environment)
    else:
        found = _peak_devices(environment, knowledge, family)
    found &= listed
    return found.pop() if len(found) == 1 else None


def _peak_devices(environment: Environment, knowledge: KnowledgeBase, family: str) -> set[str]:
    """Devices of the family whose peak row detection matched, each row counted only when one device names it."""
    rows = {peak.device for peak in environment.peaks if peak.kind != "cpu"}
    by_row: dict[str, list[str]] = {}
    for device in knowledge.platform(family).devices:
        if device.peaks is not None:
            by_row.setdefault(device.peaks, []).append(device.id)
    return {ids[0] for row, ids in by_row.items() if row in rows and len(ids) == 1}


def _named_devices(family: str, model_name: str) -> set[str]:
    return {device for named, pattern, device in _NAMED if named == family and re.search(pattern, model_name)}


def _apple_devices(environment: Environment) -> set[str]:
    chip = environment.apple.chip if environment.apple is not None else None
    found = _APPLE_CHIP.match(chip.strip()) if chip else None
    return {f"apple-m{found.group(1)}"} if found else set()
