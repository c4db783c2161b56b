"""Tokens from a provider (``clients/BEHAVIOUR.md``, Tokens): asked for every attempt, asked anew once on a
``401`` whose challenge says ``error="invalid_token"``.

A provider is called with the token this call just had refused, or ``None`` on an ordinary attempt, so one
that caches tokens can drop exactly the refused one. What it returns is checked before anything is sent: a
provider that fails, or returns something a header cannot carry, fails the call with ``APIConnectionError``
(the provider's error as its ``__cause__``), not retried and not logged.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable

import httpx

from ._exceptions import AgenticDriverError, APIConnectionError, APIStatusError

__all__ = ["AsyncTokenProvider", "TokenProvider", "aasked", "asked", "invalid_token"]

TokenProvider = Callable[[str | None], str]
"""``provider(refused)``: the bearer token for the next attempt; ``refused`` is the token just refused, or None."""
AsyncTokenProvider = Callable[[str | None], str | Awaitable[str]]
"""The same, for ``AsyncAgenticDriver``: it may also return an awaitable (an ``async def`` provider)."""

_HEADER_SAFE = re.compile(r"[\x21-\x7e]+")
_INVALID_TOKEN = re.compile(r'\berror\s*=\s*"?invalid_token"?', re.IGNORECASE)


def invalid_token(failure: AgenticDriverError) -> bool:
    """Whether the host refused the token itself (401 with ``WWW-Authenticate: Bearer error="invalid_token"``)."""
    if not isinstance(failure, APIStatusError) or failure.status_code != 401:
        return False
    return _INVALID_TOKEN.search(failure.headers.get("www-authenticate", "")) is not None


def asked(provider: TokenProvider, refused: str | None, request: httpx.Request) -> str:
    """The provider's token for ``request`` (set as its ``Authorization``), or the error that fails the call."""
    try:
        value = provider(refused)
    except Exception as error:
        raise _failed(request, error) from error
    if inspect.isawaitable(value):
        close = getattr(value, "close", None)
        if close is not None:
            close()  # a coroutine never awaited would warn
        raise TypeError("the token provider returned an awaitable: use AsyncAgenticDriver for an async provider")
    return _authorize(value, request)


async def aasked(provider: AsyncTokenProvider, refused: str | None, request: httpx.Request) -> str:
    """``asked`` for the async client: the provider's result is awaited when it is awaitable."""
    try:
        value = provider(refused)
        if inspect.isawaitable(value):
            value = await value
    except Exception as error:
        raise _failed(request, error) from error
    return _authorize(value, request)


def _authorize(value: object, request: httpx.Request) -> str:
    if not isinstance(value, str) or _HEADER_SAFE.fullmatch(value) is None:
        kind = "an empty string" if value == "" else f"a {type(value).__name__} a header cannot carry"
        raise APIConnectionError(f"not sent: the token provider returned {kind}", request=request)
    request.headers["Authorization"] = f"Bearer {value}"
    return value


def _failed(request: httpx.Request, error: Exception) -> APIConnectionError:
    return APIConnectionError(f"not sent: the token provider failed ({type(error).__name__})", request=request)
