"""``RunStream`` and ``AsyncRunStream``: one streamed turn as an iterable, a context manager and its final run.

A stream of a run sent with ``onDisconnect: continue``, and every ``runs.events``
stream, resumes itself when its connection drops before the run's last event
(``clients/BEHAVIOUR.md``, Resuming a stream): it rejoins the run's events with
``Last-Event-ID`` (or, before the run id is known, sends the request again with its
``Idempotency-Key``), within the call's retry budget, and delivers every event
once, in order, skipping the ids it already delivered.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar

import httpx
from httpx_sse import EventSource, ServerSentEvent

from ._attempts import Attempts
from ._base import Options, connection_error
from ._events import Event, UnknownEvent, parse_event_data
from ._exceptions import AgenticDriverError, APIConnectionError, APIStatusError, error_from_response
from ._plans import Call, plans

if TYPE_CHECKING:
    from agentic_driver_client.models import RunResult

__all__ = ["AsyncRunStream", "RunStream"]

R = TypeVar("R", bound="RunResult")

_TERMINAL = frozenset({"run.completed", "run.requires_action", "run.failed"})
_EVENT_ID = re.compile(r"[1-9][0-9]{0,17}")


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


def _run_id(data: Any) -> str | None:
    """The run an event belongs to: its ``runId``, or the ``run.id`` of ``run.completed`` / ``run.requires_action``."""
    if not isinstance(data, dict):
        return None
    run = data.get("run")
    found = data.get("runId", run.get("id") if isinstance(run, dict) else None)
    return found if isinstance(found, str) and found else None


class _Resumption:
    """What a resumable stream needs to rejoin its run: the run id, the last event delivered, the call's attempts."""

    def __init__(self, attempts: Attempts) -> None:
        self.attempts = attempts
        self.original = attempts.call
        self.run_id = attempts.call.run_id
        self.last = attempts.call.last_event_id or 0
        """The id of the last event delivered (for ``runs.events``, at first the caller's ``last_event_id``)."""
        self.fresh = False
        """The body being read is a rejoin's (or a re-sent request's) that has delivered no new event yet."""

    def next_call(self) -> Call[Any]:
        """The rejoin (``streamRunEvents`` after the last event delivered), or, while no event of this stream
        has been delivered, the request itself again with its ``Idempotency-Key`` (the host joins or replays it)."""
        if self.run_id is not None and self.last > 0:
            return plans.run_events(self.run_id, self.last)
        return self.original


class _State(Generic[R]):
    """What both stream kinds track: the head, the last terminal event, whether the stream is over, and how to
    resume it."""

    def __init__(self, parse: Callable[[Any], R], attempts: Attempts) -> None:
        self.parse = parse
        self.attempts = attempts
        self.response: httpx.Response | None = None
        self.terminal: tuple[str, dict[str, Any]] | None = None
        self.done = False
        self.failure: AgenticDriverError | None = None
        """What ended the stream before its last event (``final_run`` raises it again)."""
        self.last_event_id: int | None = attempts.call.last_event_id
        self.run_id: str | None = attempts.call.run_id
        self.unknown_last = False
        """The last event delivered was an ``UnknownEvent``."""
        self.resumption = _Resumption(attempts) if attempts.call.resumes else None

    def event(self, sse: ServerSentEvent) -> Event | None:
        """The event to deliver, or None for a keep-alive or an event this stream already delivered."""
        if not sse.data:  # keep-alive comments can surface as data-less events
            return None
        event_id = int(sse.id) if _EVENT_ID.fullmatch(sse.id or "") else None
        resumption = self.resumption
        if resumption is not None:
            if event_id is None:  # an event without an id cannot be told apart on a rejoin: never resumed
                self.resumption = resumption = None
            elif event_id <= resumption.last:
                return None  # delivered already (a rejoin, or a retried request joining its run, starts earlier)
        data = json.loads(sse.data)
        event = parse_event_data(sse.event, data)
        kind = data.get("type", sse.event) if isinstance(data, dict) else sse.event
        if kind in _TERMINAL and isinstance(data, dict):
            self.terminal = (kind, data)
        if event_id is not None:
            self.last_event_id = event_id
        self.unknown_last = isinstance(event, UnknownEvent)
        self.run_id = self.run_id or _run_id(data)
        if resumption is not None and event_id is not None:
            resumption.last = event_id
            resumption.run_id = resumption.run_id or self.run_id
            resumption.fresh = False
            self.attempts.progressed()
        return event

    def opened(self, response: httpx.Response, idle: float) -> None:
        idle_limited(response, idle)
        self.response = response

    def resumable(self) -> bool:
        """Whether a drop now is resumed: the stream resumes and its run's last event has not arrived."""
        return self.resumption is not None and self.terminal is None and not self.done

    def over(self) -> bool:
        """A resumable stream ends at its run's last event (nothing to resume after it)."""
        return self.resumption is not None and self.terminal is not None

    def truncated(self) -> bool:
        """The body ended before the run's last event: a connection error, never a quiet end, unless the last
        event was of a type this client does not know (it may be a newer one that ends a run)."""
        return self.terminal is None and not self.unknown_last

    def ended_early(self) -> APIConnectionError:
        request = self.response.request if self.response is not None else None
        return APIConnectionError("the stream ended before the run's last event", request=request)

    def final(self) -> R:
        if self.terminal is None and self.failure is not None:
            raise self.failure
        if self.terminal is None or self.response is None:
            raise APIConnectionError("the stream ended before the run's last event; read the run to reconcile")
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
    connection, which interrupts a session turn whose model work had started
    (unless the run was sent with ``on_disconnect="continue"``).
    A silence longer than ``stream_idle_timeout`` raises ``APITimeoutError``.

    A run sent with ``on_disconnect="continue"`` (and every ``runs.events``
    stream) resumes by itself when the connection drops before the run's last
    event: the loop goes on, each event once, in order; only when the retry
    budget is spent does the last failure reach you.
    """

    def __init__(
        self,
        call: Call[R],
        send: Callable[[Attempts], httpx.Response],
        pause: Callable[[float], None],
        options: Options,
    ) -> None:
        self._send = send
        self._pause = pause
        self._idle = options.stream_idle_timeout
        self._state: _State[R] = _State(call.parse, Attempts(call, options))
        self._sse: Iterator[ServerSentEvent] | None = None

    @property
    def response(self) -> httpx.Response:
        """The stream's ``200`` answer (status and headers; ``X-Request-Id``); opens the stream if needed.

        After a resume, the answer of the rejoin being read."""
        if self._state.response is None:
            self._open()
        assert self._state.response is not None
        return self._state.response

    @property
    def last_event_id(self) -> int | None:
        """The id of the last event delivered (a run's events are numbered once, across all its streams):
        ``runs.events(run_id, last_event_id=...)`` reads on after it. None before the first."""
        return self._state.last_event_id

    @property
    def run_id(self) -> str | None:
        """The run's id, once an event named it (``run.started`` does): for ``runs.retrieve`` / ``runs.events``
        after a stream that could not be resumed. None before."""
        return self._state.run_id

    def _open(self) -> Iterator[ServerSentEvent]:
        if self._sse is None:
            try:
                response = self._send(self._state.attempts)
            except AgenticDriverError as failure:
                if self._state.response is not None:  # a rejoin failed: the stream is over
                    self._state.done, self._state.failure = True, failure
                raise
            self._state.opened(response, self._idle)
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
        state = self._state
        while not state.done:
            if state.over():
                break
            source = self._open()
            try:
                while True:
                    event = state.event(next(source))
                    if event is not None:
                        return event
            except StopIteration:
                if not state.resumable():
                    if state.truncated():
                        state.failure = state.ended_early()
                        self.close()
                        raise state.failure from None
                    break
                failure = state.ended_early()
            except httpx.TransportError as error:
                failure = connection_error(error)
                if not state.resumable():
                    state.failure = failure
                    self.close()
                    raise failure from error
            self._resume(failure)
        self.close()
        raise StopIteration

    def _resume(self, failure: APIConnectionError) -> None:
        """Close the dropped connection, wait as the retry budget says (or raise ``failure``), reconnect next read."""
        assert self._state.resumption is not None
        resumption = self._state.resumption
        self._disconnect()
        try:
            wait = resumption.attempts.dropped(failure, resumption.fresh)
        except APIConnectionError:
            self._state.done, self._state.failure = True, failure
            raise
        if wait:
            self._pause(wait)
        resumption.attempts.restart(resumption.next_call())
        resumption.fresh = True

    def final_run(self) -> R:
        """Read the rest of the stream and return its final run (a ``run.failed`` raises its typed error)."""
        for _ in self:
            pass
        return self._state.final()

    def _disconnect(self) -> None:
        self._sse = None
        if self._state.response is not None:
            self._state.response.close()

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

    It resumes as ``RunStream`` does (a run sent with ``on_disconnect="continue"``, and every ``runs.events``).
    """

    def __init__(
        self,
        call: Call[R],
        send: Callable[[Attempts], Awaitable[httpx.Response]],
        pause: Callable[[float], Awaitable[None]],
        options: Options,
    ) -> None:
        self._send = send
        self._pause = pause
        self._idle = options.stream_idle_timeout
        self._state: _State[R] = _State(call.parse, Attempts(call, options))
        self._sse: AsyncIterator[ServerSentEvent] | None = None

    @property
    def response(self) -> httpx.Response:
        """The stream's ``200`` answer (status and headers), once the stream is entered or iterated.

        After a resume, the answer of the rejoin being read."""
        if self._state.response is None:
            raise RuntimeError("the stream is not open yet: enter it (async with) or iterate it first")
        return self._state.response

    @property
    def last_event_id(self) -> int | None:
        """The id of the last event delivered, as ``RunStream.last_event_id``."""
        return self._state.last_event_id

    @property
    def run_id(self) -> str | None:
        """The run's id once an event named it, as ``RunStream.run_id``."""
        return self._state.run_id

    async def _open(self) -> AsyncIterator[ServerSentEvent]:
        if self._sse is None:
            try:
                response = await self._send(self._state.attempts)
            except AgenticDriverError as failure:
                if self._state.response is not None:  # a rejoin failed: the stream is over
                    self._state.done, self._state.failure = True, failure
                raise
            self._state.opened(response, self._idle)
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
        state = self._state
        while not state.done:
            if state.over():
                break
            source = await self._open()
            try:
                while True:
                    event = state.event(await anext(source))
                    if event is not None:
                        return event
            except StopAsyncIteration:
                if not state.resumable():
                    if state.truncated():
                        state.failure = state.ended_early()
                        await self.close()
                        raise state.failure from None
                    break
                failure = state.ended_early()
            except httpx.TransportError as error:
                failure = connection_error(error)
                if not state.resumable():
                    state.failure = failure
                    await self.close()
                    raise failure from error
            await self._resume(failure)
        await self.close()
        raise StopAsyncIteration

    async def _resume(self, failure: APIConnectionError) -> None:
        """Close the dropped connection, wait as the retry budget says (or raise ``failure``), reconnect next read."""
        assert self._state.resumption is not None
        resumption = self._state.resumption
        await self._disconnect()
        try:
            wait = resumption.attempts.dropped(failure, resumption.fresh)
        except APIConnectionError:
            self._state.done, self._state.failure = True, failure
            raise
        if wait:
            await self._pause(wait)
        resumption.attempts.restart(resumption.next_call())
        resumption.fresh = True

    async def final_run(self) -> R:
        """Read the rest of the stream and return its final run (a ``run.failed`` raises its typed error)."""
        async for _ in self:
            pass
        return self._state.final()

    async def _disconnect(self) -> None:
        source, self._sse = self._sse, None
        if isinstance(source, AsyncGenerator):
            await source.aclose()
        if self._state.response is not None:
            await self._state.response.aclose()

    async def close(self) -> None:
        """Close the connection (before the last event, a disconnect)."""
        self._state.done = True
        if self._state.response is not None:
            await self._state.response.aclose()
