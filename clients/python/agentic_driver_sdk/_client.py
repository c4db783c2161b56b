"""``AgenticDriver`` and ``AsyncAgenticDriver``: the contract as keyword-argument methods.

    from agentic_driver_sdk import AgenticDriver

    with AgenticDriver() as client:  # AGENTIC_DRIVER_URL and AGENTIC_DRIVER_TOKEN from the environment
        session = client.sessions.create(provider="echo", model="echo-1", mode="history")
        result = client.run(provider="echo", model="echo-1", input="Hello", session=session)
        result = client.run(provider="echo", model="echo-1", input="Again", session=result.session)

Every POST carries one ``Idempotency-Key`` per logical call, reused on each
retry, so a retried run can never run a turn twice. Connection failures,
connect timeouts, 429 and 502/503/504 are retried (``max_retries``, exponential
backoff with jitter, honouring ``Retry-After``); revision conflicts,
interruptions, failures of an accepted run and other 4xx never are, and
``SESSION_BUSY`` only with ``retry_busy=True``.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, AsyncIterator, Generator, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager, asynccontextmanager, contextmanager
from typing import TYPE_CHECKING, Any, Self, TypeVar

import httpx
from httpx_sse import EventSource

from ._base import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    Call,
    Options,
    connection_error,
    new_key,
    plans,
    retry_delay,
)
from ._exceptions import AgenticDriverError, NotFoundError, error_from_response
from ._recovery import UNCHANGED, Keep, Reconciliation, _fork_arguments, _Unchanged, reconciliation_of

if TYPE_CHECKING:
    from agentic_driver_client.models import (
        CancelRunResponse,
        Discovery,
        Message,
        ReadSessionResponse,
        RunResult,
        SessionInfo,
        ToolDefinition,
    )

    from ._base import Handle
    from ._events import Event

__all__ = ["AgenticDriver", "AsyncAgenticDriver", "AsyncRuns", "AsyncSessions", "Runs", "Sessions"]

T = TypeVar("T")

# Indirections so tests can observe backoff without waiting it out.
_sleep = time.sleep


async def _asleep(seconds: float) -> None:
    import asyncio  # not at module level: it is most of what this package would add to importing httpx

    await asyncio.sleep(seconds)


Results = Sequence[Mapping[str, Any]] | Mapping[str, str]
Approvals = Sequence[Mapping[str, Any]] | Mapping[str, bool]


def _parse(call: Call[T], response: httpx.Response) -> T:
    return call.parse(response.json() if response.content else None)


def _stream_headers(key: str) -> dict[str, str]:
    return {"Accept": "text/event-stream", "Idempotency-Key": key}


class AgenticDriver:
    """A synchronous client. Use it as a context manager, or call ``close()``.

    Arguments come first, then the environment (``AGENTIC_DRIVER_URL``,
    ``AGENTIC_DRIVER_TOKEN``), then defaults (``http://127.0.0.1:8080``, no token).

        import httpx
        from agentic_driver_sdk import AgenticDriver

        client = AgenticDriver(
            base_url="http://127.0.0.1:8080",
            token="my-token-of-16-chars-or-more",
            timeout=httpx.Timeout(120.0, connect=2.0),  # read and connect timeouts apart
            max_retries=3,
        )
        with client:
            print(client.discovery().providers)

    ``transport`` replaces httpx's network transport (an ``httpx.MockTransport``
    in tests, or a transport with your own proxies and certificates).
    """

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
        """Create, read and delete sessions."""
        self.runs = Runs(self)
        """Run turns, stream them, answer required actions, cancel."""

    @property
    def options(self) -> Options:
        """This client's configuration."""
        return self._options

    def with_options(self, **changes: Any) -> AgenticDriver:
        """A new client with some options changed; this one is left as it was.

        Accepts ``base_url``, ``token``, ``timeout``, ``max_retries``,
        ``default_headers`` and ``retry_busy``. The copy has its own connection
        pool (close it too) and shares this client's transport.

            patient = client.with_options(timeout=600, max_retries=5)
            result = patient.run(provider="echo", model="echo-1", input="a long task")
        """
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
        """What this token may use on the host (``getDiscovery``).

        for provider in client.discovery().providers:
            print(provider.id, provider.models)
        """
        return self._call(plans.discovery())

    def run(
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
        """Run one turn; the same as ``runs.create(...)``.

        result = client.run(provider="echo", model="echo-1", input="Hello", session=session)
        print(result.output.text)
        session = result.session  # the next revision
        """
        return self.runs.create(
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
            idempotency_key=idempotency_key,
        )

    def reconcile(self, session_id: str, sent: Handle) -> Reconciliation:
        """After a lost answer: did the turn sent with handle ``sent`` land, and what did it reply?

        Reads the session (which does not extend its retention) and compares
        revisions. Nothing is retried or created for you.

            try:
                result = client.run(provider="echo", model="echo-1", input=text, session=handle)
            except APIConnectionError:
                state = client.reconcile(handle.id, handle)
                if state.landed:
                    print("it landed:", state.reply)
                elif state.interrupted is not None:
                    print("interrupted; fork to go on")
                else:
                    print("not landed; send it again with", state.session.handle)
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
        idempotency_key: str | None = None,
    ) -> SessionInfo:
        """Create a new session from a chosen part of this one's visible history.

        Explicit by design: the host never converts or falls back on its own.
        ``keep`` is None (all), the number of last messages, a slice, or a
        function of the history returning the messages to keep. Provider, model
        and mode default to the original's; instructions too, unless given
        (``None`` drops them).

            fresh = client.fork(interrupted_id, keep=4)
            other = client.fork(session_id, provider="echo", model="echo-2", keep=slice(0, 2))
            users = client.fork(session_id, keep=lambda h: [m for m in h if m.role == "user"])
        """
        read = self.sessions.read(session_id)
        arguments = _fork_arguments(read, provider, model, mode, instructions, keep)
        return self.sessions.create(**arguments, idempotency_key=idempotency_key)

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _call(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            failure: AgenticDriverError
            try:
                response = self._http.request(call.method, call.path, json=call.body, headers=call.headers())
            except httpx.TransportError as error:
                failure = connection_error(error)
            else:
                if response.is_success:
                    return _parse(call, response)
                failure = error_from_response(response, response.content)
                if call.missing_means_done and attempt > 0 and isinstance(failure, NotFoundError):
                    return call.parse(None)
            delay = retry_delay(failure, attempt, self._options, call.method)
            if delay is None:
                raise failure
            _sleep(delay)
            attempt += 1

    @contextmanager
    def _stream(self, path: str, body: dict[str, Any], key: str) -> Iterator[Iterator[Event]]:
        attempt = 0
        while True:
            failure: AgenticDriverError
            request = self._http.build_request("POST", path, json=body, headers=_stream_headers(key))
            try:
                response = self._http.send(request, stream=True)
            except httpx.TransportError as error:
                failure = connection_error(error)
            else:
                if response.is_success:
                    events = _iter_events(EventSource(response))
                    try:
                        yield events
                    finally:
                        events.close()
                        response.close()  # before the last event, this is a disconnect
                    return
                try:
                    failure = error_from_response(response, response.read())
                except httpx.TransportError as error:
                    failure = connection_error(error)
                finally:
                    response.close()
            delay = retry_delay(failure, attempt, self._options)
            if delay is None:
                raise failure
            _sleep(delay)
            attempt += 1


def _iter_events(source: EventSource) -> Generator[Event]:
    from ._events import parse_event

    try:
        for sse in source.iter_sse():
            if sse.data:  # keep-alive comments can surface as data-less events
                yield parse_event(sse)
    except httpx.TransportError as error:
        raise connection_error(error) from error


class Sessions:
    """``client.sessions``: create, read and delete sessions."""

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
        """Create a session (``createSession``); returns its ``SessionInfo`` at revision 0.

        ``mode`` is ``"history"`` (user text and final assistant text) or
        ``"native"`` (also the provider's own state, kept inside the host).
        ``history`` imports earlier messages as generated ``Message`` models or
        ``{"role": ..., "content": ...}`` dicts.

            session = client.sessions.create(
                provider="echo", model="echo-1", mode="history",
                instructions="Answer briefly.",
                history=[{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}],
            )
            print(session.id, session.revision)  # ses_..., 0
        """
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
        """Metadata, instructions, visible history and turns (``readSession``); does not extend retention.

        read = client.sessions.read(session.id)
        for message in read.history:
            print(message.role, message.content)
        """
        return self._client._call(plans.read_session(session_id))

    def delete(self, session_id: str) -> None:
        """Delete the session and abort its active turn (``deleteSession``).

        A retry after a lost answer that finds the session gone counts as done.

            client.sessions.delete(session.id)
        """
        self._client._call(plans.delete_session(session_id))


class Runs:
    """``client.runs``: run turns (plain or streamed), answer required actions, cancel."""

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
        """Run one turn (``run``): stateless, or continuing ``session``.

        ``session`` is a ``SessionInfo`` (from ``sessions.create`` or a result's
        ``.session``), a ``SessionHandle`` or ``{"id": ..., "revision": ...}``.
        Stateless runs may send ``instructions``, ``history``, ``attachments``
        and ``retrieval``; ``tools`` declares functions the application runs
        itself (the result then has ``status == "requires_action"``).

            result = client.runs.create(provider="echo", model="echo-1", input="Hi", session=session)
            print(result.output.text, result.usage.output_tokens)
            session = result.session  # revision + 1
        """
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

    def stream(
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
    ) -> AbstractContextManager[Iterator[Event]]:
        """``streamRun`` as a context manager yielding typed events; the same arguments as ``create``.

        A refusal before the stream starts raises the same errors as ``create``.
        Leaving the block before the last event disconnects, which interrupts a
        session turn whose model work had started. Event types newer than this
        client arrive as ``UnknownEvent``.

            from agentic_driver_client.models import OutputDeltaEvent, RunCompletedEvent

            with client.runs.stream(provider="echo", model="echo-1", input="Hi", session=session) as events:
                for event in events:
                    if isinstance(event, OutputDeltaEvent):
                        print(event.text, end="", flush=True)
                    elif isinstance(event, RunCompletedEvent):
                        session = event.run.session
        """
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
        return self._client._stream("/v1/runs/stream", body, idempotency_key or new_key())

    def submit_actions(
        self,
        run_id: str,
        *,
        function_results: Results | None = None,
        approvals: Approvals | None = None,
        idempotency_key: str | None = None,
    ) -> RunResult:
        """Answer a run waiting in ``requires_action`` (``submitRunActions``).

        ``function_results`` answers function calls (``{call_id: output}`` or
        ``[{"callId": ..., "output": ...}]``); ``approvals`` answers host-tool
        approvals (``{call_id: True}`` or ``[{"callId": ..., "approve": False, "reason": ...}]``).

            result = client.run(provider="echo", model="echo-1", input=text, tools=tools)
            while result.status == "requires_action":
                calls = result.required_action.calls
                result = client.runs.submit_actions(
                    result.id, function_results={c.call_id: my_function(c) for c in calls}
                )
        """
        body = plans.actions_body(function_results, approvals)
        return self._client._call(plans.submit_actions(run_id, body, idempotency_key))

    def stream_actions(
        self,
        run_id: str,
        *,
        function_results: Results | None = None,
        approvals: Approvals | None = None,
        idempotency_key: str | None = None,
    ) -> AbstractContextManager[Iterator[Event]]:
        """``streamRunActions``: answer a waiting run and stream the rest of its turn.

        with client.runs.stream_actions(run_id, function_results={call_id: "42"}) as events:
            for event in events:
                ...
        """
        body = plans.actions_body(function_results, approvals)
        return self._client._stream(plans.actions_stream_path(run_id), body, idempotency_key or new_key())

    def cancel(self, run_id: str) -> CancelRunResponse:
        """Cancel an active run of yours (``cancelRun``).

        Before model work started the session stays ``ready``; after, it is
        ``interrupted``. The run's own request gets ``RunCancelledError``.

            cancelled = client.runs.cancel(run_id)
            print(cancelled.model_work_started)
        """
        return self._client._call(plans.cancel(run_id))


class AsyncAgenticDriver:
    """The asynchronous client: the same methods as ``AgenticDriver``, awaited.

    from agentic_driver_sdk import AsyncAgenticDriver

    async with AsyncAgenticDriver() as client:
        session = await client.sessions.create(provider="echo", model="echo-1")
        result = await client.run(provider="echo", model="echo-1", input="Hi", session=session)
        async with client.runs.stream(provider="echo", model="echo-1", input="More",
                                      session=result.session) as events:
            async for event in events:
                print(event)
    """

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
        """Create, read and delete sessions."""
        self.runs = AsyncRuns(self)
        """Run turns, stream them, answer required actions, cancel."""

    @property
    def options(self) -> Options:
        """This client's configuration."""
        return self._options

    def with_options(self, **changes: Any) -> AsyncAgenticDriver:
        """A new client with some options changed (see ``AgenticDriver.with_options``)."""
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
        """What this token may use on the host (``getDiscovery``)."""
        return await self._call(plans.discovery())

    async def run(
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
        """Run one turn; the same as ``runs.create(...)``.

        result = await client.run(provider="echo", model="echo-1", input="Hi", session=session)
        """
        return await self.runs.create(
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
            idempotency_key=idempotency_key,
        )

    async def reconcile(self, session_id: str, sent: Handle) -> Reconciliation:
        """After a lost answer: did the turn sent with handle ``sent`` land (see ``AgenticDriver.reconcile``)?

        state = await client.reconcile(handle.id, handle)
        """
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
        idempotency_key: str | None = None,
    ) -> SessionInfo:
        """A new session from a chosen part of this one's history (see ``AgenticDriver.fork``).

        fresh = await client.fork(session_id, keep=4)
        """
        read = await self.sessions.read(session_id)
        arguments = _fork_arguments(read, provider, model, mode, instructions, keep)
        return await self.sessions.create(**arguments, idempotency_key=idempotency_key)

    async def close(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def _call(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            failure: AgenticDriverError
            try:
                response = await self._http.request(call.method, call.path, json=call.body, headers=call.headers())
            except httpx.TransportError as error:
                failure = connection_error(error)
            else:
                if response.is_success:
                    return _parse(call, response)
                failure = error_from_response(response, response.content)
                if call.missing_means_done and attempt > 0 and isinstance(failure, NotFoundError):
                    return call.parse(None)
            delay = retry_delay(failure, attempt, self._options, call.method)
            if delay is None:
                raise failure
            await _asleep(delay)
            attempt += 1

    @asynccontextmanager
    async def _stream(self, path: str, body: dict[str, Any], key: str) -> AsyncIterator[AsyncIterator[Event]]:
        attempt = 0
        while True:
            failure: AgenticDriverError
            request = self._http.build_request("POST", path, json=body, headers=_stream_headers(key))
            try:
                response = await self._http.send(request, stream=True)
            except httpx.TransportError as error:
                failure = connection_error(error)
            else:
                if response.is_success:
                    aevents = _aiter_events(EventSource(response))
                    try:
                        yield aevents
                    finally:
                        await aevents.aclose()
                        await response.aclose()  # before the last event, this is a disconnect
                    return
                try:
                    failure = error_from_response(response, await response.aread())
                except httpx.TransportError as error:
                    failure = connection_error(error)
                finally:
                    await response.aclose()
            delay = retry_delay(failure, attempt, self._options)
            if delay is None:
                raise failure
            await _asleep(delay)
            attempt += 1


async def _aiter_events(source: EventSource) -> AsyncGenerator[Event]:
    from ._events import parse_event

    try:
        async for sse in source.aiter_sse():
            if sse.data:
                yield parse_event(sse)
    except httpx.TransportError as error:
        raise connection_error(error) from error


class AsyncSessions:
    """``client.sessions`` of ``AsyncAgenticDriver``."""

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
        """Create a session (see ``Sessions.create``).

        session = await client.sessions.create(provider="echo", model="echo-1", mode="native")
        """
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
        """Read a session (see ``Sessions.read``).

        read = await client.sessions.read(session.id)
        """
        return await self._client._call(plans.read_session(session_id))

    async def delete(self, session_id: str) -> None:
        """Delete a session (see ``Sessions.delete``).

        await client.sessions.delete(session.id)
        """
        await self._client._call(plans.delete_session(session_id))


class AsyncRuns:
    """``client.runs`` of ``AsyncAgenticDriver``."""

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
        """Run one turn (see ``Runs.create``).

        result = await client.runs.create(provider="echo", model="echo-1", input="Hi")
        """
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

    def stream(
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
    ) -> AbstractAsyncContextManager[AsyncIterator[Event]]:
        """Stream one turn (see ``Runs.stream``).

        async with client.runs.stream(provider="echo", model="echo-1", input="Hi") as events:
            async for event in events:
                print(event)
        """
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
        return self._client._stream("/v1/runs/stream", body, idempotency_key or new_key())

    async def submit_actions(
        self,
        run_id: str,
        *,
        function_results: Results | None = None,
        approvals: Approvals | None = None,
        idempotency_key: str | None = None,
    ) -> RunResult:
        """Answer a waiting run (see ``Runs.submit_actions``).

        result = await client.runs.submit_actions(result.id, function_results={call_id: "42"})
        """
        body = plans.actions_body(function_results, approvals)
        return await self._client._call(plans.submit_actions(run_id, body, idempotency_key))

    def stream_actions(
        self,
        run_id: str,
        *,
        function_results: Results | None = None,
        approvals: Approvals | None = None,
        idempotency_key: str | None = None,
    ) -> AbstractAsyncContextManager[AsyncIterator[Event]]:
        """Answer a waiting run and stream the rest of its turn (see ``Runs.stream_actions``).

        async with client.runs.stream_actions(run_id, approvals={call_id: True}) as events:
            async for event in events:
                print(event)
        """
        body = plans.actions_body(function_results, approvals)
        return self._client._stream(plans.actions_stream_path(run_id), body, idempotency_key or new_key())

    async def cancel(self, run_id: str) -> CancelRunResponse:
        """Cancel an active run of yours (see ``Runs.cancel``).

        await client.runs.cancel(run_id)
        """
        return await self._client._call(plans.cancel(run_id))
