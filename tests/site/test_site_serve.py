"""`advisor site serve`: a real MkDocs dev server that rebuilds when a record changes."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from site_records import CONFIG


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_for(url: str, expected: str, timeout_s: float) -> str:
    deadline, last = time.monotonic() + timeout_s, ""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                last = response.read().decode("utf-8")
            if expected in last:
                return last
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.3)
    raise AssertionError(f"{url} did not show {expected!r} within {timeout_s} s")


def test_serve_previews_and_rebuilds_on_record_change(records_copy: Path):
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "advisor", "site", "serve", "--config", str(CONFIG), "--records-dir", str(records_copy),
         "--addr", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        _wait_for(f"http://127.0.0.1:{port}/", "NVIDIA serving from CPU proxy evidence", 90)
        record = next(records_copy.glob("0002-*.md"))
        record.write_text(record.read_text().replace("title: NVIDIA serving from CPU proxy evidence", "title: Renamed while serving", 1))
        _wait_for(f"http://127.0.0.1:{port}/", "Renamed while serving", 60)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    assert server.returncode in (0, 130, -signal.SIGINT), server.stderr.read() if server.stderr else ""
