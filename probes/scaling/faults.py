"""Test-only fault hook of the scaling worker: ADVISOR_SCALING_FAULT=KIND@RANK, e.g. raise@1.

KIND is raise (a Python error), exit (dies without one) or hang (sleeps until killed). The fault
fires on that rank when the first measured case starts, so tests see a case in flight fail.
"""

from __future__ import annotations

import os
import time

FAULT_ENV = "ADVISOR_SCALING_FAULT"
FAULT_KINDS = ("raise", "exit", "hang")


def inject_fault(rank: int) -> None:
    """Fire the fault named in ADVISOR_SCALING_FAULT if it is meant for `rank`; otherwise do nothing."""
    kind, _, target = os.environ.get(FAULT_ENV, "").partition("@")
    if kind not in FAULT_KINDS or not target.isdigit() or int(target) != rank:
        return
    if kind == "raise":
        raise RuntimeError(f"injected fault ({FAULT_ENV}={kind}@{target})")
    if kind == "exit":
        os._exit(3)
    while True:
        time.sleep(60)
