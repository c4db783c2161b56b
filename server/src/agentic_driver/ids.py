"""Session and run ids that name the host process owning them.

A session lives in one process's memory and never moves (see ``SCALEOUT.md``),
so its id says where it lives: ``ses_{hostId}.{random}`` and
``run_{hostId}.{random}``. ``hostId`` is a DNS label (a StatefulSet pod name
works) and ``.`` is outside URL-safe base64, so the split is unambiguous.
Proxies route on the ``Agentic-Host`` header that clients derive from the id,
and a host answers a request that names another host with 421.

Ids of older hosts (``ses_{random}``, no host part) still parse: they name no
host, so they are served (or not found) wherever they land.
"""

from __future__ import annotations

import re
import secrets

__all__ = ["HOST_ID_PATTERN", "HostIds", "is_host_id", "owner_of"]

HOST_ID_PATTERN = r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$"
"""A DNS label (RFC 1123): lower-case letters, digits and inner hyphens, 1 to 63 characters."""

_HOST_ID = re.compile(HOST_ID_PATTERN)
RANDOM_BYTES = 16
"""Random bytes after the host part: 22 URL-safe base64 characters, 128 bits."""
_PREFIXES = ("ses_", "run_")


def is_host_id(text: str) -> bool:
    return _HOST_ID.fullmatch(text) is not None


def owner_of(an_id: str) -> str | None:
    """The host a session or run id names, or None for an id without a (valid) host part."""
    if an_id[:4] not in _PREFIXES:
        return None
    dot = an_id.find(".", 4, 4 + 64)
    if dot < 0:
        return None
    host = an_id[4:dot]
    return host if is_host_id(host) else None


class HostIds:
    """Makes the ids of one host process."""

    __slots__ = ("_run_prefix", "_session_prefix", "host_id")

    def __init__(self, host_id: str) -> None:
        if not is_host_id(host_id):
            raise ValueError(f"host id {host_id!r} is not a DNS label ({HOST_ID_PATTERN})")
        self.host_id = host_id
        self._session_prefix = f"ses_{host_id}."
        self._run_prefix = f"run_{host_id}."

    def new_session_id(self) -> str:
        return self._session_prefix + secrets.token_urlsafe(RANDOM_BYTES)

    def new_run_id(self) -> str:
        return self._run_prefix + secrets.token_urlsafe(RANDOM_BYTES)

    def owns(self, an_id: str) -> bool:
        """Whether ``an_id`` names this host (an id that names no host is nobody's: False)."""
        return an_id.startswith(self._session_prefix) or an_id.startswith(self._run_prefix)
