"""The address `advisor site serve` listens on: HOST:PORT checked before MkDocs binds it (one line naming
--addr instead of its OverflowError), and whether other machines can reach it."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from probes.errors import AdvisorError

MAX_PORT = 65535
LOCAL_NAMES = ("localhost",)


@dataclass(frozen=True)
class ServeAddress:
    """A checked --addr: the host as MkDocs takes it, and the port."""

    host: str
    port: int

    @property
    def reachable_from_others(self) -> bool:
        """It listens on more than this machine's loopback (0.0.0.0, ::, a network interface's address)."""
        if self.host in LOCAL_NAMES:
            return False
        return not ipaddress.ip_address(self.host.strip("[]")).is_loopback

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"


def serve_address(text: str) -> ServeAddress:
    """HOST:PORT with HOST an IP address ([...] for IPv6) or localhost, PORT 1 to 65535; AdvisorError naming --addr."""
    shown = repr(text[:80])
    host, colon, port = text.rpartition(":")
    if not colon or not host:
        raise AdvisorError(f"--addr {shown}: use HOST:PORT, e.g. 127.0.0.1:8000")
    if not (port.isascii() and port.isdigit()) or not 1 <= int(port) <= MAX_PORT:
        raise AdvisorError(f"--addr {shown}: the port must be a number from 1 to {MAX_PORT}")
    if host not in LOCAL_NAMES:
        try:
            ipaddress.ip_address(host[1:-1] if host.startswith("[") and host.endswith("]") else host)
        except ValueError:
            raise AdvisorError(f"--addr {shown}: the host must be an IP address ([...] for IPv6) or localhost") from None
    return ServeAddress(host, int(port))
