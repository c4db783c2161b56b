"""Raw responses: ``client.with_raw_response.<call>(...)`` returns the status and headers with the parsed value."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from functools import wraps
from typing import TYPE_CHECKING, Any, Generic, ParamSpec, TypeVar

import httpx

if TYPE_CHECKING:
    from ._client import AgenticDriver, AsyncAgenticDriver
    from ._resources import AsyncRuns, AsyncSessions, Runs, Sessions

__all__ = [
    "AsyncRawResponses",
    "AsyncRawRuns",
    "AsyncRawSessions",
    "RawResponse",
    "RawResponses",
    "RawRuns",
    "RawSessions",
    "araw",
    "capture",
    "raw",
]

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


class RawResponses:
    """``client.with_raw_response``: each call with the same arguments, returning a ``RawResponse``.

        raw = client.with_raw_response.sessions.create(provider="echo", model="echo-1")
        print(raw.status_code, raw.headers["x-request-id"], raw.parse().id)

    Errors carry their answer always (``error.response``, ``error.headers``);
    a stream's answer is ``stream.response``.
    """

    def __init__(self, client: AgenticDriver) -> None:
        self.discovery = raw(client.discovery)
        self.run = raw(client.run)
        self.sessions = RawSessions(client.sessions)
        self.runs = RawRuns(client.runs)


class RawSessions:
    """``client.with_raw_response.sessions``."""

    def __init__(self, sessions: Sessions) -> None:
        self.create = raw(sessions.create)
        self.read = raw(sessions.read)
        self.truncate = raw(sessions.truncate)
        self.fork = raw(sessions.fork)
        self.delete = raw(sessions.delete)


class RawRuns:
    """``client.with_raw_response.runs``."""

    def __init__(self, runs: Runs) -> None:
        self.create = raw(runs.create)
        self.submit_actions = raw(runs.submit_actions)
        self.retrieve = raw(runs.retrieve)
        self.cancel = raw(runs.cancel)


class AsyncRawResponses:
    """``client.with_raw_response`` of ``AsyncAgenticDriver``: as ``RawResponses``, awaited.

    raw = await client.with_raw_response.sessions.create(provider="echo", model="echo-1")
    """

    def __init__(self, client: AsyncAgenticDriver) -> None:
        self.discovery = araw(client.discovery)
        self.run = araw(client.run)
        self.sessions = AsyncRawSessions(client.sessions)
        self.runs = AsyncRawRuns(client.runs)


class AsyncRawSessions:
    """``client.with_raw_response.sessions`` (async)."""

    def __init__(self, sessions: AsyncSessions) -> None:
        self.create = araw(sessions.create)
        self.read = araw(sessions.read)
        self.truncate = araw(sessions.truncate)
        self.fork = araw(sessions.fork)
        self.delete = araw(sessions.delete)


class AsyncRawRuns:
    """``client.with_raw_response.runs`` (async)."""

    def __init__(self, runs: AsyncRuns) -> None:
        self.create = araw(runs.create)
        self.submit_actions = araw(runs.submit_actions)
        self.retrieve = araw(runs.retrieve)
        self.cancel = araw(runs.cancel)
