"""``RunStream`` and ``AsyncRunStream``: one streamed turn as an iterable, a context manager and its final run."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar

import httpx
from httpx_sse import EventSource, ServerSentEvent

from ._base import connection_error
from ._events import Event, parse_event_data
from ._exceptions import APIConnectionError, APIStatusError, error_from_response

if TYPE_CHECKING:
    from agentic_driver_client.models import RunResult

__all__ = ["AsyncRunStream", "RunStream"]

R = TypeVar("R", bound="RunResult")

_TERMINAL = frozenset({"run.completed", "run.requires_action", "run.failed"})


def idle_limited(response: httpx.Response, idle: float) -> None:
    """From the head on, the read timeout of this response is the stream idle timeout.

    httpx hands the request's ``extensions`` dict itself to httpcore, which reads its
    ``timeout`` on every body read, so replacing the entry applies to the rest of the
    stream (a unit test proves a silent stream fails after ``idle``, not ``read``).
    """
    timeouts = dict(response.request.extensions.get("timeout") or {})
    timeouts["read"] = idle
    response.request.extensions["timeout"] = timeouts


def failure_of(data: dict[str, Any], response: httpx.Response) -> APIStatusError:
    """A ``run.failed`` event as the typed error the non-streamed call would raise (same code and fields)."""
    found = data.get("problem")
    problem: dict[str, Any] = found if isinstance(found, dict) else {}
    status = problem.get("status")
    if not isinstance(status, int) or not 400 <= status <= 599:
        status = 500
    synthetic = httpx.Response(
        status,
        headers={"content-type": "application/problem+json", "x-request-id": response.headers.get("x-request-id", "")},
        content=json.dumps(problem).encode(),
        request=response.request,
    )
    return error_from_response(synthetic, synthetic.content)


class _State(Generic[R]):
    """What both stream kinds track: the head, the last terminal event, whether the stream is over."""

    def __init__(self, parse: Callable[[Any], R]) -> None:
        self.parse = parse
        self.response: httpx.Response | None = None
        self.terminal: tuple[str, dict[str, Any]] | None = None
        self.done = False

    def event(self, sse: ServerSentEvent) -> Event | None:
        if not sse.data:  # keep-alive comments can surface as data-less events
            return None
        data = json.loads(sse.data)
        event = parse_event_data(sse.event, data)
        kind = data.get("type", sse.event) if isinstance(data, dict) else sse.event
        if kind in _TERMINAL and isinstance(data, dict):
            self.terminal = (kind, data)
        return event

    def final(self) -> R:
        if self.terminal is None or self.response is None:
            raise APIConnectionError("the stream ended before the run's last event; read the session to reconcile")
        kind, data = self.terminal
        if kind == "run.failed":
            raise failure_of(data, self.response)
        return self.parse(data["run"])


class RunStream(Generic[R]):
    """A streamed turn: iterate its events, use it as a context manager, or ask for its final run.

        with client.runs.stream(provider="echo", model="echo-1", input="Hi", session=session) as stream:
            for event in stream:
                if isinstance(event, OutputDeltaEvent):
                    print(event.text, end="", flush=True)
        result = stream.final_run()  # the run of run.completed / run.requires_action

    The request is sent when the stream is entered or first iterated; a refusal
    raises the typed error then (after the same retries as a plain call). Events
    are ``agentic_driver_client.models`` event models, or ``UnknownEvent`` for
    types newer than this client. Leaving before the last event closes the
    connection, which interrupts a session turn whose model work had started.
    A silence longer than ``stream_idle_timeout`` raises ``APITimeoutError``.
    """

    def __init__(self, open_stream: Callable[[], httpx.Response], parse: Callable[[Any], R], idle: float) -> None:
        self._open_stream = open_stream
        self._idle = idle
        self._state: _State[R] = _State(parse)
        self._sse: Iterator[ServerSentEvent] | None = None

    @property
    def response(self) -> httpx.Response:
        """The stream's ``200`` answer (status and headers; ``X-Request-Id``); opens the stream if needed."""
        self._open()
        assert self._state.response is not None
        return self._state.response

    def _open(self) -> Iterator[ServerSentEvent]:
        if self._sse is None:
            response = self._open_stream()
            idle_limited(response, self._idle)
            self._state.response = response
            self._sse = EventSource(response).iter_sse()
        return self._sse

    def __enter__(self) -> Self:
        self._open()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __iter__(self) -> Self:
        return self

    def __next__(self) -> Event:
        if self._state.done:
            raise StopIteration
        source = self._open()
        try:
            while True:
                event = self._state.event(next(source))
                if event is not None:
                    return event
        except StopIteration:
            self.close()
            raise
        except httpx.TransportError as error:
            self.close()
            raise connection_error(error) from error

    def final_run(self) -> R:
        """Read the rest of the stream and return its final run (a ``run.failed`` raises its typed error)."""
        for _ in self:
            pass
        return self._state.final()

    def close(self) -> None:
        """Close the connection (before the last event, a disconnect)."""
        self._state.done = True
        if self._state.response is not None:
            self._state.response.close()


class AsyncRunStream(Generic[R]):
    """The async ``RunStream``: ``async with``, ``async for``, ``await stream.final_run()``.

    async with client.runs.stream(provider="echo", model="echo-1", input="Hi") as stream:
        async for event in stream:
            print(event)
    result = await stream.final_run()
    """

    def __init__(
        self, open_stream: Callable[[], Awaitable[httpx.Response]], parse: Callable[[Any], R], idle: float
    ) -> None:
        self._open_stream = open_stream
        self._idle = idle
        self._state: _State[R] = _State(parse)
        self._sse: AsyncIterator[ServerSentEvent] | None = None

    @property
    def response(self) -> httpx.Response:
        """The stream's ``200`` answer (status and headers), once the stream is entered or iterated."""
        if self._state.response is None:
            raise RuntimeError("the stream is not open yet: enter it (async with) or iterate it first")
        return self._state.response

    async def _open(self) -> AsyncIterator[ServerSentEvent]:
        if self._sse is None:
            response = await self._open_stream()
            idle_limited(response, self._idle)
            self._state.response = response
            self._sse = EventSource(response).aiter_sse()
        return self._sse

    async def __aenter__(self) -> Self:
        await self._open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> Event:
        if self._state.done:
            raise StopAsyncIteration
        source = await self._open()
        try:
            while True:
                event = self._state.event(await anext(source))
                if event is not None:
                    return event
        except StopAsyncIteration:
            await self.close()
            raise
        except httpx.TransportError as error:
            await self.close()
            raise connection_error(error) from error

    async def final_run(self) -> R:
        """Read the rest of the stream and return its final run (a ``run.failed`` raises its typed error)."""
        async for _ in self:
            pass
        return self._state.final()

    async def close(self) -> None:
        """Close the connection (before the last event, a disconnect)."""
        self._state.done = True
        if self._state.response is not None:
            await self._state.response.aclose()
