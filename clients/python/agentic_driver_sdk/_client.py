"""``AgenticDriver`` and ``AsyncAgenticDriver``: the contract as keyword-argument methods.

    from agentic_driver_sdk import AgenticDriver

    with AgenticDriver() as client:  # AGENTIC_DRIVER_URL and AGENTIC_DRIVER_TOKEN from the environment
        session = client.sessions.create(provider="echo", model="echo-1", mode="history")
        result = client.run(provider="echo", model="echo-1", input="Hello", session=session.handle)
        result = client.run(provider="echo", model="echo-1", input="Again", session=result.session.handle)

Every POST carries one ``Idempotency-Key`` per logical call, reused on each
retry, so a retried run can never run a turn twice. Connection failures,
timeouts, 429 and 502/503/504 are retried (``max_retries``, exponential backoff
with jitter, honouring ``Retry-After``); revision conflicts, interruptions and
other 4xx never are, and ``SESSION_BUSY`` only with ``retry_busy=True``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Any, Self, TypeVar

import httpx
from httpx_sse import EventSource

from agentic_driver_client.models import (
    CancelRunResponse,
    Discovery,
    Message,
    ReadSessionResponse,
    RunResult,
    SessionHandle,
    SessionInfo,
    ToolDefinition,
)

from ._base import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, Call, Options, new_key, plans, retry_delay
from ._exceptions import APIConnectionError, APITimeoutError, NotFoundError, error_from_response
from ._recovery import UNCHANGED, Keep, Reconciliation, _fork_arguments, _Unchanged, reconciliation_of
from .streaming import Event, parse_event

__all__ = ["AgenticDriver", "AsyncAgenticDriver"]

T = TypeVar("T")
Handle = SessionHandle | SessionInfo | Mapping[str, Any]


def _send_error(error: httpx.TransportError, request: httpx.Request | None) -> APIConnectionError:
    if isinstance(error, httpx.TimeoutException):
        return APITimeoutError(f"timed out: {error}", request=request)
    return APIConnectionError(f"connection failed: {error}", request=request)


def _parse(call: Call[T], response: httpx.Response) -> T:
    return call.parse(response.json() if response.content else None)


class AgenticDriver:
    """A synchronous client. Use as a context manager, or call ``close()``."""

    def __init__(
        self,
        *,
        base_url: str | None = None,
        token: str | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        default_headers: Mapping[str, str] | None = None,
        retry_busy: bool = False,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._options = Options.resolve(base_url, token, timeout, max_retries, default_headers, retry_busy)
        self._transport = transport
        self._http = httpx.Client(
            base_url=self._options.base_url,
            headers=self._options.headers(),
            timeout=self._options.timeout,
            transport=transport,
        )
        self.sessions = Sessions(self)
        self.runs = Runs(self)

    @property
    def options(self) -> Options:
        return self._options

    def with_options(self, **changes: Any) -> AgenticDriver:
        """A new client with some options changed (``timeout``, ``max_retries``, ``token``, ...)."""
        options = self._options.evolve(**changes)
        return AgenticDriver(
            base_url=options.base_url,
            token=options.token,
            timeout=options.timeout,
            max_retries=options.max_retries,
            default_headers=options.default_headers,
            retry_busy=options.retry_busy,
            transport=self._transport,
        )

    def discovery(self) -> Discovery:
        """What this token may use on the host (``getDiscovery``)."""
        return self._call(plans.discovery())

    def run(self, **arguments: Any) -> RunResult:
        """Shortcut for ``runs.create(...)``."""
        return self.runs.create(**arguments)

    def reconcile(self, session_id: str, sent: Handle) -> Reconciliation:
        """After a lost answer: did the turn sent with handle ``sent`` land, and what did it reply?

        Reads the session (which does not extend retention) and compares revisions.
        """
        return reconciliation_of(self.sessions.read(session_id), sent)

    def fork(
        self,
        session_id: str,
        *,
        provider: str | None = None,
        model: str | None = None,
        mode: str | None = None,
        instructions: str | _Unchanged | None = UNCHANGED,
        keep: Keep = None,
    ) -> SessionInfo:
        """Create a new session from a chosen part of this one's visible history.

        Explicit by design: the host never converts or falls back on its own. ``keep``
        is the number of last messages, a slice, or a function of the history.
        """
        read = self.sessions.read(session_id)
        return self.sessions.create(**_fork_arguments(read, provider, model, mode, instructions, keep))

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _call(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            try:
                response = self._http.request(call.method, call.path, json=call.body, headers=call.headers())
            except httpx.TransportError as error:
                failure: Exception = _send_error(error, getattr(error, "request", None))
            else:
                if response.is_success:
                    return _parse(call, response)
                failure = error_from_response(response, response.content)
                if call.missing_means_done and attempt > 0 and isinstance(failure, NotFoundError):
                    return call.parse(None)
            delay = retry_delay(failure, attempt, self._options)  # type: ignore[arg-type]
            if delay is None:
                raise failure
            time.sleep(delay)
            attempt += 1

    @contextmanager
    def _stream(self, path: str, body: dict[str, Any], key: str) -> Iterator[Iterator[Event]]:
        headers = {"Accept": "text/event-stream", "Idempotency-Key": key}
        attempt = 0
        while True:
            try:
                with self._http.stream("POST", path, json=body, headers=headers) as response:
                    if not response.is_success:
                        failure: Exception = error_from_response(response, response.read())
                    else:
                        yield _iter_events(EventSource(response))
                        return
            except httpx.TransportError as error:
                failure = _send_error(error, getattr(error, "request", None))
            delay = retry_delay(failure, attempt, self._options)  # type: ignore[arg-type]
            if delay is None:
                raise failure
            time.sleep(delay)
            attempt += 1


def _iter_events(source: EventSource) -> Iterator[Event]:
    try:
        for sse in source.iter_sse():
            yield parse_event(sse)
    except httpx.TransportError as error:
        raise _send_error(error, None) from error


class Sessions:
    def __init__(self, client: AgenticDriver) -> None:
        self._client = client

    def create(
        self,
        *,
        provider: str,
        model: str,
        mode: str = "history",
        instructions: str | None = None,
        history: Sequence[Message | Mapping[str, Any]] | None = None,
        idempotency_key: str | None = None,
    ) -> SessionInfo:
        """Create a session (``createSession``); returns its ``SessionInfo`` at revision 0."""
        return self._client._call(
            plans.create_session(
                provider=provider,
                model=model,
                mode=mode,
                instructions=instructions,
                history=history,
                idempotency_key=idempotency_key,
            )
        )

    def read(self, session_id: str) -> ReadSessionResponse:
        """Metadata, instructions, visible history and turns (``readSession``); does not extend retention."""
        return self._client._call(plans.read_session(session_id))

    def delete(self, session_id: str) -> None:
        """Delete the session and abort its active turn (``deleteSession``)."""
        self._client._call(plans.delete_session(session_id))


class Runs:
    def __init__(self, client: AgenticDriver) -> None:
        self._client = client

    def create(
        self,
        *,
        provider: str,
        model: str,
        input: str,
        session: Handle | None = None,
        instructions: str | None = None,
        history: Sequence[Message | Mapping[str, Any]] | None = None,
        attachments: Sequence[Mapping[str, Any]] | None = None,
        retrieval: Mapping[str, Any] | None = None,
        tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
        idle_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> RunResult:
        """Run one turn (``run``): stateless, or continuing ``session`` (a handle or a ``SessionInfo``)."""
        body = plans.run_body(
            provider=provider,
            model=model,
            input=input,
            session=session,
            instructions=instructions,
            history=history,
            attachments=attachments,
            retrieval=retrieval,
            tools=tools,
            idle_timeout_ms=idle_timeout_ms,
        )
        return self._client._call(plans.run(body, idempotency_key))

    def stream(self, *, idempotency_key: str | None = None, **arguments: Any) -> Any:
        """``streamRun`` as a context manager yielding typed events; the same arguments as ``create``.

        Leaving the block before the last event disconnects, which interrupts a
        session turn whose model work had started.
        """
        body = plans.run_body(**_run_arguments(arguments))
        return self._client._stream("/v1/runs/stream", body, idempotency_key or new_key())

    def submit_actions(
        self,
        run_id: str,
        *,
        function_results: Sequence[Mapping[str, Any]] | Mapping[str, str] | None = None,
        approvals: Sequence[Mapping[str, Any]] | Mapping[str, bool] | None = None,
        idempotency_key: str | None = None,
    ) -> RunResult:
        """Answer a run waiting in ``requires_action`` (``submitRunActions``)."""
        body = plans.actions_body(function_results, approvals)
        return self._client._call(plans.submit_actions(run_id, body, idempotency_key))

    def stream_actions(
        self,
        run_id: str,
        *,
        function_results: Sequence[Mapping[str, Any]] | Mapping[str, str] | None = None,
        approvals: Sequence[Mapping[str, Any]] | Mapping[str, bool] | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        """``streamRunActions`` as a context manager yielding typed events."""
        body = plans.actions_body(function_results, approvals)
        return self._client._stream(f"/v1/runs/{run_id}/actions/stream", body, idempotency_key or new_key())

    def cancel(self, run_id: str) -> CancelRunResponse:
        """Cancel an active run of yours (``cancelRun``)."""
        return self._client._call(plans.cancel(run_id))


def _run_arguments(arguments: dict[str, Any]) -> dict[str, Any]:
    defaults = {
        "session": None,
        "instructions": None,
        "history": None,
        "attachments": None,
        "retrieval": None,
        "tools": None,
        "idle_timeout_ms": None,
    }
    unknown = set(arguments) - set(defaults) - {"provider", "model", "input"}
    if unknown:
        raise TypeError(f"unexpected arguments: {', '.join(sorted(unknown))}")
    return {**defaults, **arguments}


class AsyncAgenticDriver:
    """The asynchronous client; the same methods as ``AgenticDriver``, awaited."""

    def __init__(
        self,
        *,
        base_url: str | None = None,
        token: str | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        default_headers: Mapping[str, str] | None = None,
        retry_busy: bool = False,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._options = Options.resolve(base_url, token, timeout, max_retries, default_headers, retry_busy)
        self._transport = transport
        self._http = httpx.AsyncClient(
            base_url=self._options.base_url,
            headers=self._options.headers(),
            timeout=self._options.timeout,
            transport=transport,
        )
        self.sessions = AsyncSessions(self)
        self.runs = AsyncRuns(self)

    @property
    def options(self) -> Options:
        return self._options

    def with_options(self, **changes: Any) -> AsyncAgenticDriver:
        options = self._options.evolve(**changes)
        return AsyncAgenticDriver(
            base_url=options.base_url,
            token=options.token,
            timeout=options.timeout,
            max_retries=options.max_retries,
            default_headers=options.default_headers,
            retry_busy=options.retry_busy,
            transport=self._transport,
        )

    async def discovery(self) -> Discovery:
        return await self._call(plans.discovery())

    async def run(self, **arguments: Any) -> RunResult:
        return await self.runs.create(**arguments)

    async def reconcile(self, session_id: str, sent: Handle) -> Reconciliation:
        return reconciliation_of(await self.sessions.read(session_id), sent)

    async def fork(
        self,
        session_id: str,
        *,
        provider: str | None = None,
        model: str | None = None,
        mode: str | None = None,
        instructions: str | _Unchanged | None = UNCHANGED,
        keep: Keep = None,
    ) -> SessionInfo:
        read = await self.sessions.read(session_id)
        return await self.sessions.create(**_fork_arguments(read, provider, model, mode, instructions, keep))

    async def close(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def _call(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            try:
                response = await self._http.request(call.method, call.path, json=call.body, headers=call.headers())
            except httpx.TransportError as error:
                failure: Exception = _send_error(error, getattr(error, "request", None))
            else:
                if response.is_success:
                    return _parse(call, response)
                failure = error_from_response(response, response.content)
                if call.missing_means_done and attempt > 0 and isinstance(failure, NotFoundError):
                    return call.parse(None)
            delay = retry_delay(failure, attempt, self._options)  # type: ignore[arg-type]
            if delay is None:
                raise failure
            await asyncio.sleep(delay)
            attempt += 1

    @asynccontextmanager
    async def _stream(self, path: str, body: dict[str, Any], key: str) -> AsyncIterator[AsyncIterator[Event]]:
        headers = {"Accept": "text/event-stream", "Idempotency-Key": key}
        attempt = 0
        while True:
            try:
                async with self._http.stream("POST", path, json=body, headers=headers) as response:
                    if not response.is_success:
                        failure: Exception = error_from_response(response, await response.aread())
                    else:
                        yield _aiter_events(EventSource(response))
                        return
            except httpx.TransportError as error:
                failure = _send_error(error, getattr(error, "request", None))
            delay = retry_delay(failure, attempt, self._options)  # type: ignore[arg-type]
            if delay is None:
                raise failure
            await asyncio.sleep(delay)
            attempt += 1


async def _aiter_events(source: EventSource) -> AsyncIterator[Event]:
    try:
        async for sse in source.aiter_sse():
            yield parse_event(sse)
    except httpx.TransportError as error:
        raise _send_error(error, None) from error


class AsyncSessions:
    def __init__(self, client: AsyncAgenticDriver) -> None:
        self._client = client

    async def create(
        self,
        *,
        provider: str,
        model: str,
        mode: str = "history",
        instructions: str | None = None,
        history: Sequence[Message | Mapping[str, Any]] | None = None,
        idempotency_key: str | None = None,
    ) -> SessionInfo:
        return await self._client._call(
            plans.create_session(
                provider=provider,
                model=model,
                mode=mode,
                instructions=instructions,
                history=history,
                idempotency_key=idempotency_key,
            )
        )

    async def read(self, session_id: str) -> ReadSessionResponse:
        return await self._client._call(plans.read_session(session_id))

    async def delete(self, session_id: str) -> None:
        await self._client._call(plans.delete_session(session_id))


class AsyncRuns:
    def __init__(self, client: AsyncAgenticDriver) -> None:
        self._client = client

    async def create(
        self,
        *,
        provider: str,
        model: str,
        input: str,
        session: Handle | None = None,
        instructions: str | None = None,
        history: Sequence[Message | Mapping[str, Any]] | None = None,
        attachments: Sequence[Mapping[str, Any]] | None = None,
        retrieval: Mapping[str, Any] | None = None,
        tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
        idle_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> RunResult:
        body = plans.run_body(
            provider=provider,
            model=model,
            input=input,
            session=session,
            instructions=instructions,
            history=history,
            attachments=attachments,
            retrieval=retrieval,
            tools=tools,
            idle_timeout_ms=idle_timeout_ms,
        )
        return await self._client._call(plans.run(body, idempotency_key))

    def stream(self, *, idempotency_key: str | None = None, **arguments: Any) -> Any:
        body = plans.run_body(**_run_arguments(arguments))
        return self._client._stream("/v1/runs/stream", body, idempotency_key or new_key())

    async def submit_actions(
        self,
        run_id: str,
        *,
        function_results: Sequence[Mapping[str, Any]] | Mapping[str, str] | None = None,
        approvals: Sequence[Mapping[str, Any]] | Mapping[str, bool] | None = None,
        idempotency_key: str | None = None,
    ) -> RunResult:
        body = plans.actions_body(function_results, approvals)
        return await self._client._call(plans.submit_actions(run_id, body, idempotency_key))

    def stream_actions(
        self,
        run_id: str,
        *,
        function_results: Sequence[Mapping[str, Any]] | Mapping[str, str] | None = None,
        approvals: Sequence[Mapping[str, Any]] | Mapping[str, bool] | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        body = plans.actions_body(function_results, approvals)
        return self._client._stream(f"/v1/runs/{run_id}/actions/stream", body, idempotency_key or new_key())

    async def cancel(self, run_id: str) -> CancelRunResponse:
        return await self._client._call(plans.cancel(run_id))
