"""Raw responses: ``client.with_raw_response.<call>(...)`` returns the status and headers with the parsed value."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from functools import wraps
from typing import Any, Generic, ParamSpec, TypeVar

import httpx

__all__ = ["RawResponse", "araw", "capture", "raw"]

T = TypeVar("T")
P = ParamSpec("P")

_answers: ContextVar[list[httpx.Response] | None] = ContextVar("agentic_driver_answers", default=None)


def capture(response: httpx.Response) -> None:
    """Called by a client on the answer that produced a result; kept only inside ``with_raw_response``."""
    box = _answers.get()
    if box is not None:
        box.append(response)


class RawResponse(Generic[T]):
    """The answer behind a result: ``.status_code``, ``.headers``, ``.http_response``; ``.parse()`` is the result.

    raw = client.with_raw_response.run(provider="echo", model="echo-1", input="Hi")
    print(raw.status_code, raw.headers["x-request-id"])
    result = raw.parse()
    """

    __slots__ = ("_parsed", "http_response")

    def __init__(self, http_response: httpx.Response, parsed: T) -> None:
        self.http_response = http_response
        """The httpx response of the attempt that succeeded (its body was read)."""
        self._parsed = parsed

    @property
    def status_code(self) -> int:
        return self.http_response.status_code

    @property
    def headers(self) -> httpx.Headers:
        return self.http_response.headers

    @property
    def request_id(self) -> str | None:
        """The host's ``X-Request-Id`` for this answer."""
        value = self.http_response.headers.get("x-request-id")
        return None if value is None else str(value)

    def parse(self) -> T:
        """The value the plain call returns."""
        return self._parsed

    def __repr__(self) -> str:
        return f"<RawResponse {self.status_code} {self.http_response.request.url.path}>"


def _last(box: list[httpx.Response]) -> httpx.Response:
    if not box:  # every wrapped call ends in exactly one successful answer
        raise RuntimeError("the call returned without an answer")
    return box[-1]


def raw(call: Callable[P, T]) -> Callable[P, RawResponse[T]]:
    """A call's raw form: the same arguments, a ``RawResponse`` of its result."""

    @wraps(call)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> RawResponse[T]:
        box: list[httpx.Response] = []
        token = _answers.set(box)
        try:
            value = call(*args, **kwargs)
        finally:
            _answers.reset(token)
        return RawResponse(_last(box), value)

    return wrapper


def araw(call: Callable[P, Coroutine[Any, Any, T]]) -> Callable[P, Coroutine[Any, Any, RawResponse[T]]]:
    """The async form of ``raw``."""

    @wraps(call)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> RawResponse[T]:
        box: list[httpx.Response] = []
        token = _answers.set(box)
        try:
            value = await call(*args, **kwargs)
        finally:
            _answers.reset(token)
        return RawResponse(_last(box), value)

    return wrapper
