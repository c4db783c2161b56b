"""The wrong-hop check: a request for another host's session or run is answered 421, with no side effect.

Behind a proxy, each request that names an existing session or run carries the
``Agentic-Host`` header (clients derive it from the id, ``ses_{hostId}.…``) and
the proxy routes on it. A request that still lands on the wrong process (no
header, a proxy without the route, a stale config) must not be answered as if
the session did not exist: ``SESSION_NOT_FOUND`` would make a client give up on
a live session. It gets ``MISDIRECTED_REQUEST`` (421) naming the owner instead.

The check runs after authentication (a stranger learns nothing about hosts)
and before the body is read or anything is admitted:

- an operation with the id in its path: the id decides when it names a host
  (where header and id disagree, the id wins); an older id without a host part
  names none, and then the header decides;
- ``run`` and ``streamRun`` name their session inside the body: the header is
  checked first, before the body is read (so a misrouted request costs no body
  read); once the body is parsed, its ``session.id`` is checked too, still
  before admission.
"""

from __future__ import annotations

from starlette.requests import Request

from ..errors import MisdirectedRequest
from ..ids import owner_of
from .headers import request_header

__all__ = ["HOST_HEADER", "OwnerCheck"]

HOST_HEADER = "agentic-host"
"""``Agentic-Host``: the host the client means (a request header; HTTP header names are case-insensitive)."""
_HOST_HEADER = HOST_HEADER.encode("latin-1")


class OwnerCheck:
    """Answers, for one host process, whether a request is meant for another."""

    __slots__ = ("_prefixes", "host_id")

    def __init__(self, host_id: str) -> None:
        self.host_id = host_id
        self._prefixes = (f"ses_{host_id}.", f"run_{host_id}.")

    def path_id(self, request: Request, an_id: str) -> None:
        """Raise ``MisdirectedRequest`` when the path's id, or else the header, names another host."""
        if an_id.startswith(self._prefixes):  # the usual case, decided without parsing the id
            return
        owner = owner_of(an_id)
        if owner is None:
            self.header(request)
        elif owner != self.host_id:
            raise self._misdirected(owner, f"{an_id!r} belongs to host {owner!r}")

    def header(self, request: Request) -> None:
        """Raise ``MisdirectedRequest`` when the ``Agentic-Host`` header names another host."""
        named = request_header(request, _HOST_HEADER)
        if named is not None and named != self.host_id:
            raise self._misdirected(named, f"the request names host {named!r} (Agentic-Host)")

    def body_id(self, an_id: str) -> None:
        """Raise ``MisdirectedRequest`` when a session id from the body names another host."""
        if an_id.startswith(self._prefixes):
            return
        owner = owner_of(an_id)
        if owner is not None and owner != self.host_id:
            raise self._misdirected(owner, f"{an_id!r} belongs to host {owner!r}")

    def _misdirected(self, owner: str, what: str) -> MisdirectedRequest:
        return MisdirectedRequest(
            f"This is host {self.host_id!r}; {what}. Nothing was done: send the request to that host "
            f"(with the header Agentic-Host: {owner}).",
            host_id=self.host_id,
            owner_host_id=owner,
        )
