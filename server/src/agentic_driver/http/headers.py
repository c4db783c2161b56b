"""Request header lookups straight from the ASGI scope.

Starlette's ``request.headers.get(name)`` goes through ``Mapping.get`` and ``Headers.__getitem__`` (two Python
calls, the name lowered and encoded each time) and raises and catches a ``KeyError`` for every header that is
absent, which most optional ones (``Agentic-Host``, ``Idempotency-Key``) are: about 5,000 instructions a lookup
(bench/README.md, "The whole process, counted"). ``request_header`` reads the same list (the scope's
``headers``, names lower-case as ASGI requires) and gives the same answer: the first field of that name, as text.
"""

from __future__ import annotations

from starlette.requests import Request

__all__ = ["request_header"]


def request_header(request: Request, name: bytes) -> str | None:
    """The first ``name`` field of the request (``name`` in lower case), or None when there is none."""
    for key, value in request.scope["headers"]:
        if key == name:
            return value.decode("latin-1")  # type: ignore[no-any-return]
    return None
