"""Which advisor code took a measurement: the git commit of the checkout, when it is one."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parents[1]
_GIT_TIMEOUT_S = 5.0


def advisor_git_commit() -> str | None:
    """`git rev-parse HEAD` in the package folder (read-only); None when git or a commit is missing."""
    try:
        completed = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=_PACKAGE_DIR,
            capture_output=True,
            text=True,
            timeout=_GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = completed.stdout.strip()
    if completed.returncode != 0 or not re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", commit):  # sha1 or sha256 repos
        return None
    return commit
