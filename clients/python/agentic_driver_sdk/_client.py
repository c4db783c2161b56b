"""``AgenticDriver`` and ``AsyncAgenticDriver``: the contract as keyword-argument methods.

    from agentic_driver_sdk import AgenticDriver

    with AgenticDriver() as client:  # AGENTIC_DRIVER_URL and AGENTIC_DRIVER_TOKEN from the environment
        session = client.sessions.create(provider="echo", model="echo-1", mode="history")
        result = client.run(provider="echo", model="echo-1", input="Hello", session=session)
        result = client.run(provider="echo", model="echo-1", input="Again", session=result.session)

Both implement ``clients/BEHAVIOUR.md``: every POST that takes one carries one
``Idempotency-Key`` per logical call, reused on each retry, so a retried run can
never run a turn twice; connection failures, connect timeouts, ``HOST_BUSY``,
``SESSION_STORE_FULL``, ``SHUTTING_DOWN``, ``IDEMPOTENCY_KEY_IN_USE`` and a
proxy's 502/503/504 are retried (``max_retries``, default 2, exponential
backoff with jitter, honouring ``Retry-After`` up to 60 s); nothing else is.
``SESSION_BUSY`` is never retried: ``sessions.wait_until_idle`` is its helper.
A request about a session or run sends ``Agentic-Host`` (the owner named in its
id); a ``421 MISDIRECTED_REQUEST`` is sent again once, at once, to its
``ownerHostId``, and ``HOST_UNAVAILABLE`` is retried like ``HOST_BUSY``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Self, TypeVar, overload

import httpx

from ._base import (
    DEFAULT_IDLE_TIMEOUT,
    DEFAULT_MAX_RETRIES,
    DEFAULT_STREAM_IDLE_TIMEOUT,
    DEFAULT_TIMEOUT,
    ROUTING_HEADER,
    Call,
    Options,
    configure_logging,
    connection_error,
    host_of,
    idle_timeout_error,
    idle_waits,
    log_attempt,
    misdirected_owner,
    new_key,
    parse_run_result,
    parse_session_run_result,
    plans,
    retry_delay,
    session_host,
)
from ._exceptions import AgenticDriverError, NotFoundError, SessionBusyError, error_from_response
from ._raw import araw, capture, raw
from ._recovery import UNCHANGED, Keep, Reconciliation, _fork_arguments, _Unchanged, reconciliation_of
from ._stream import AsyncRunStream, RunStream
from ._tls import CABundle, ssl_verification

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
    from ._models import SessionRunResult

__all__ = [
    "AgenticDriver",
    "AsyncAgenticDriver",
    "AsyncRawResponses",
    "AsyncRawRuns",
    "AsyncRawSessions",
    "AsyncRuns",
    "AsyncSessions",
    "RawResponses",
    "RawRuns",
    "RawSessions",
    "Runs",
    "Sessions",
]

T = TypeVar("T")
R = TypeVar("R", bound="RunResult")

# Indirections so tests can observe backoff without waiting it out.
_sleep = time.sleep


async def _asleep(seconds: float) -> None:
    import asyncio  # not at module level: it is most of what this package would add to importing httpx

    await asyncio.sleep(seconds)


Results = Sequence[Mapping[str, Any]] | Mapping[str, str]
Approvals = Sequence[Mapping[str, Any]] | Mapping[str, bool]


def _parse(call: Call[T], response: httpx.Response) -> T:
    return call.parse(response.json() if response.content else None)


def _stream_headers(key: str, host: str | None) -> dict[str, str]:
    headers = {"Accept": "text/event-stream", "Idempotency-Key": key}
    if host is not None:
        headers[ROUTING_HEADER] = host
    return headers


class AgenticDriver:
    """A synchronous client. Use it as a context manager, or call ``close()``.

    Arguments come first, then the environment (``AGENTIC_DRIVER_URL``,
    ``AGENTIC_DRIVER_TOKEN``), then defaults (``http://127.0.0.1:8080``, no token).

        import httpx
        from agentic_driver_sdk import AgenticDriver

        client = AgenticDriver(
            base_url="http://127.0.0.1:8080",
            token="my-token-of-16-chars-or-more",
            timeout=httpx.Timeout(600.0, connect=2.0),  # read and connect timeouts apart
            stream_idle_timeout=60.0,
            max_retries=3,
            default_headers={"X-App": "billing"},
        )
        with client:
            print(client.discovery().providers)

    ``ca_bundle`` is the CA certificates to trust for an ``https://`` host, a PEM
    file path or PEM bytes (``ca_bundle="/etc/agentic/ca.pem"``): for a host whose
    certificate a private CA signed. It replaces the default trust (httpx's
    ``certifi`` bundle, or ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` when set); an
    untrusted host fails with ``APIConnectionError``, never unverified.
    ``transport`` replaces httpx's network transport (an ``httpx.MockTransport``
    in tests, or a transport with your own proxies and certificates; it decides
    about TLS, so it cannot be combined with ``ca_bundle``).
    ``client.with_raw_response.<call>(...)`` returns a ``RawResponse`` (status,
    headers, ``.parse()``) instead of the value. ``AGENTIC_DRIVER_LOG=debug`` logs
    one line per attempt on standard error (``logging.getLogger("agentic_driver_sdk")``).
    """

    def __init__(
        self,
        *,
        base_url: str | None = None,
        token: str | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        default_headers: Mapping[str, str] | None = None,
        stream_idle_timeout: float = DEFAULT_STREAM_IDLE_TIMEOUT,
        transport: httpx.BaseTransport | None = None,
        ca_bundle: CABundle | None = None,
    ) -> None:
        configure_logging()
        self._options = Options.resolve(base_url, token, timeout, max_retries, default_headers, stream_idle_timeout)
        self._transport = transport
        self._ca_bundle = ca_bundle
        self._http = httpx.Client(
            base_url=self._options.base_url,
            headers=self._options.headers(),
            timeout=self._options.timeout,
            transport=transport,
            verify=ssl_verification(ca_bundle, transport),
        )
        self.sessions = Sessions(self)
        """Create, read, truncate and delete sessions; wait until one is idle."""
        self.runs = Runs(self)
        """Run turns, stream them, answer required actions, cancel."""
        self.with_raw_response = RawResponses(self)
        """The same calls, returning a ``RawResponse`` (status, headers, ``.parse()``)."""

    @property
    def options(self) -> Options:
        """This client's configuration."""
        return self._options

    def with_options(self, **changes: Any) -> AgenticDriver:
        """A new client with some options changed; this one is left as it was.

        Accepts ``base_url``, ``token``, ``timeout``, ``max_retries``,
        ``default_headers`` and ``stream_idle_timeout``. The copy has its own
        connection pool (close it too) and shares this client's transport and ``ca_bundle``.

            patient = client.with_options(timeout=600, max_retries=5)
        """
        options = self._options.evolve(**changes)
        return AgenticDriver(
            base_url=options.base_url,
            token=options.token,
            timeout=options.timeout,
            max_retries=options.max_retries,
            default_headers=options.default_headers,
            stream_idle_timeout=options.stream_idle_timeout,
            transport=self._transport,
            ca_bundle=self._ca_bundle,
        )

    def discovery(self) -> Discovery:
        """What this token may use on the host (``getDiscovery``).

        for provider in client.discovery().providers:
            print(provider.id, provider.models)
        """
        return self._call(plans.discovery())

    @overload
    def run(
        self,
        *,
        provider: str,
        model: str,
        input: str,
        session: Handle,
        tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
        idle_timeout_ms: int | None = None,
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> SessionRunResult: ...

    @overload
    def run(
        self,
        *,
        provider: str,
        model: str,
        input: str,
        session: None = None,
        instructions: str | None = None,
        history: Sequence[Message | Mapping[str, Any]] | None = None,
        attachments: Sequence[Mapping[str, Any]] | None = None,
        retrieval: Mapping[str, Any] | None = None,
        tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
        idle_timeout_ms: int | None = None,
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> RunResult: ...

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
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> RunResult:
        """Run one turn; the same as ``runs.create(...)``.

        result = client.run(provider="echo", model="echo-1", input="Hello", session=session)
        print(result.output.text)
        session = result.session  # the next revision (a SessionInfo: the overload says so)
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
            action_timeout_ms=action_timeout_ms,
        )
        if session is None:
            return self._call(plans.run(body, idempotency_key))
        return self._call(plans.session_run(body, idempotency_key))

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
        attempt, host, followed = 0, call.host, False
        while True:
            failure: AgenticDriverError
            headers = call.headers(host)
            try:
                response = self._http.request(call.method, call.path, json=call.body, headers=headers)
            except httpx.TransportError as error:
                failure = connection_error(error)
            else:
                if response.is_success:
                    log_attempt(call.method, call.path, attempt, response, None)
                    capture(response)
                    return _parse(call, response)
                failure = error_from_response(response, response.content)
                if call.missing_means_done and attempt > 0 and isinstance(failure, NotFoundError):
                    log_attempt(call.method, call.path, attempt, response, None)
                    capture(response)
                    return call.parse(None)
            owner = misdirected_owner(failure, followed)
            if owner is not None:  # once, at once, and not one of the retries
                log_attempt(call.method, call.path, attempt, failure, 0.0)
                host, followed = owner, True
                continue
            delay = retry_delay(failure, attempt, self._options, call.method)
            log_attempt(call.method, call.path, attempt, failure, delay)
            if delay is None:
                raise failure
            _sleep(delay)
            attempt += 1

    def _open_stream(self, path: str, body: dict[str, Any], key: str, host: str | None) -> httpx.Response:
        """The stream's ``200`` answer (not yet read), after the retries of a plain POST."""
        attempt, followed = 0, False
        while True:
            failure: AgenticDriverError
            request = self._http.build_request("POST", path, json=body, headers=_stream_headers(key, host))
            try:
                response = self._http.send(request, stream=True)
            except httpx.TransportError as error:
                failure = connection_error(error)
            else:
                if response.is_success:
                    log_attempt("POST", path, attempt, response, None)
                    return response
                try:
                    failure = error_from_response(response, response.read())
                except httpx.TransportError as error:
                    failure = connection_error(error)
                finally:
                    response.close()
            owner = misdirected_owner(failure, followed)
            if owner is not None:  # once, at once, and not one of the retries
                log_attempt("POST", path, attempt, failure, 0.0)
                host, followed = owner, True
                continue
            delay = retry_delay(failure, attempt, self._options)
            log_attempt("POST", path, attempt, failure, delay)
            if delay is None:
                raise failure
            _sleep(delay)
            attempt += 1

    def _stream(
        self, path: str, body: dict[str, Any], key: str, parse: Callable[[Any], R], host: str | None
    ) -> RunStream[R]:
        return RunStream(lambda: self._open_stream(path, body, key, host), parse, self._options.stream_idle_timeout)


class Sessions:
    """``client.sessions``: create, read, truncate and delete sessions; wait until one is idle."""

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

            session = client.sessions.create(provider="echo", model="echo-1", mode="history")
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

    def truncate(self, session: Handle, *, keep_turns: int) -> SessionInfo:
        """Keep only the first ``keep_turns`` turns (``truncateSession``); returns the session at its next revision.

        ``session`` is the handle you believe current (a stale one is
        ``SessionRevisionConflictError``); truncating an interrupted session makes
        it ready again. Sends no Idempotency-Key (the operation takes none).

            session = client.sessions.truncate(result.session, keep_turns=1)
        """
        return self._client._call(plans.truncate_session(session, keep_turns))

    def delete(self, session_id: str) -> None:
        """Delete the session and abort its active turn (``deleteSession``).

        A retry after a lost answer that finds the session gone counts as done.

            client.sessions.delete(session.id)
        """
        self._client._call(plans.delete_session(session_id))

    def wait_until_idle(
        self, session_id: str, *, busy: SessionBusyError | None = None, timeout: float = DEFAULT_IDLE_TIMEOUT
    ) -> ReadSessionResponse:
        """Wait until the session has no active turn; returns that read (current revision, history, turns).

        The helper for ``SESSION_BUSY``, which is never retried: retrying the same
        handle would meet a certain revision conflict once the busy turn completes.
        Waits ``busy.retry_after`` first (or 0.1 s), then reads, doubling the
        interval up to 1 s, for at most ``timeout`` seconds (then ``APITimeoutError``).
        Status ``ready`` or ``interrupted`` ends the wait; you decide what to send next.

            try:
                result = client.run(provider="echo", model="echo-1", input=text, session=session)
            except SessionBusyError as error:
                read = client.sessions.wait_until_idle(session.id, busy=error)
                result = client.run(provider="echo", model="echo-1", input=text, session=read.session)
        """
        deadline = time.monotonic() + timeout
        for wait in idle_waits(busy):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise idle_timeout_error(session_id, timeout)
            _sleep(min(wait, remaining))
            read = self.read(session_id)
            if str(read.session.status) != "running":
                return read
        raise AssertionError("unreachable")  # pragma: no cover - idle_waits never ends


class Runs:
    """``client.runs``: run turns (plain or streamed), answer required actions, cancel."""

    def __init__(self, client: AgenticDriver) -> None:
        self._client = client

    @overload
    def create(
        self,
        *,
        provider: str,
        model: str,
        input: str,
        session: Handle,
        tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
        idle_timeout_ms: int | None = None,
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> SessionRunResult: ...

    @overload
    def create(
        self,
        *,
        provider: str,
        model: str,
        input: str,
        session: None = None,
        instructions: str | None = None,
        history: Sequence[Message | Mapping[str, Any]] | None = None,
        attachments: Sequence[Mapping[str, Any]] | None = None,
        retrieval: Mapping[str, Any] | None = None,
        tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
        idle_timeout_ms: int | None = None,
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> RunResult: ...

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
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> RunResult:
        """Run one turn (``run``): stateless, or continuing ``session``.

        ``session`` is a ``SessionInfo`` (from ``sessions.create`` or a result's
        ``.session``), a ``SessionHandle`` or ``{"id": ..., "revision": ...}``; the
        result is then a ``SessionRunResult`` whose ``.session`` is the next revision.
        Stateless runs may send ``instructions``, ``history``, ``attachments``
        and ``retrieval``; ``tools`` declares functions the application runs
        itself (the result then has ``status == "requires_action"``);
        ``action_timeout_ms`` ends such a run as cancelled (``action_timeout``)
        when a required action is not answered that long.

            result = client.runs.create(provider="echo", model="echo-1", input="Hi", session=session)
            print(result.output.text, result.session.revision)
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
            action_timeout_ms=action_timeout_ms,
        )
        if session is None:
            return self._client._call(plans.run(body, idempotency_key))
        return self._client._call(plans.session_run(body, idempotency_key))

    @overload
    def stream(
        self,
        *,
        provider: str,
        model: str,
        input: str,
        session: Handle,
        tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
        idle_timeout_ms: int | None = None,
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> RunStream[SessionRunResult]: ...

    @overload
    def stream(
        self,
        *,
        provider: str,
        model: str,
        input: str,
        session: None = None,
        instructions: str | None = None,
        history: Sequence[Message | Mapping[str, Any]] | None = None,
        attachments: Sequence[Mapping[str, Any]] | None = None,
        retrieval: Mapping[str, Any] | None = None,
        tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
        idle_timeout_ms: int | None = None,
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> RunStream[RunResult]: ...

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
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> RunStream[RunResult] | RunStream[SessionRunResult]:
        """``streamRun``: one turn as a ``RunStream`` of typed events; the same arguments as ``create``.

        The request is sent when the stream is entered or first iterated. A refusal
        before the stream starts raises the same errors as ``create``.

            from agentic_driver_client.models import OutputDeltaEvent

            with client.runs.stream(provider="echo", model="echo-1", input="Hi", session=session) as stream:
                for event in stream:
                    if isinstance(event, OutputDeltaEvent):
                        print(event.text, end="", flush=True)
            session = stream.final_run().session
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
            action_timeout_ms=action_timeout_ms,
        )
        key = idempotency_key or new_key()
        if session is None:
            return self._client._stream("/v1/runs/stream", body, key, parse_run_result, None)
        host = session_host(body)
        return self._client._stream("/v1/runs/stream", body, key, parse_session_run_result, host)

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
        The result is a ``SessionRunResult`` when the run had a session.

            result = client.runs.submit_actions(result.id, function_results={call_id: "42"})
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
    ) -> RunStream[RunResult]:
        """``streamRunActions``: answer a waiting run and stream the rest of its turn (a ``RunStream``).

        with client.runs.stream_actions(run_id, function_results={call_id: "42"}) as stream:
            for event in stream:
                ...
        """
        body = plans.actions_body(function_results, approvals)
        path = plans.actions_stream_path(run_id)
        key = idempotency_key or new_key()
        return self._client._stream(path, body, key, parse_run_result, host_of(run_id))

    def cancel(self, run_id: str) -> CancelRunResponse:
        """Cancel an active run of yours (``cancelRun``; sends no Idempotency-Key).

        Before model work started the session stays ``ready``; after, it is
        ``interrupted``. The run's own request gets ``RunCancelledError``.

            cancelled = client.runs.cancel(run_id)
        """
        return self._client._call(plans.cancel(run_id))


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
        self.delete = raw(sessions.delete)


class RawRuns:
    """``client.with_raw_response.runs``."""

    def __init__(self, runs: Runs) -> None:
        self.create = raw(runs.create)
        self.submit_actions = raw(runs.submit_actions)
        self.cancel = raw(runs.cancel)


class AsyncAgenticDriver:
    """The asynchronous client: the same methods as ``AgenticDriver``, awaited.

        from agentic_driver_sdk import AsyncAgenticDriver

        async with AsyncAgenticDriver() as client:
            session = await client.sessions.create(provider="echo", model="echo-1")
            result = await client.run(provider="echo", model="echo-1", input="Hi", session=session)
            async with client.runs.stream(provider="echo", model="echo-1", input="More",
                                          session=result.session) as stream:
                async for event in stream:
                    print(event)
            print((await stream.final_run()).session.revision)  # 2

    Backoff waits are ``asyncio.sleep``: cancelling the task (or ``asyncio.timeout``)
    ends them at once, and the cancellation is not retried.
    """

    def __init__(
        self,
        *,
        base_url: str | None = None,
        token: str | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        default_headers: Mapping[str, str] | None = None,
        stream_idle_timeout: float = DEFAULT_STREAM_IDLE_TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
        ca_bundle: CABundle | None = None,
    ) -> None:
        configure_logging()
        self._options = Options.resolve(base_url, token, timeout, max_retries, default_headers, stream_idle_timeout)
        self._transport = transport
        self._ca_bundle = ca_bundle
        self._http = httpx.AsyncClient(
            base_url=self._options.base_url,
            headers=self._options.headers(),
            timeout=self._options.timeout,
            transport=transport,
            verify=ssl_verification(ca_bundle, transport),
        )
        self.sessions = AsyncSessions(self)
        """Create, read, truncate and delete sessions; wait until one is idle."""
        self.runs = AsyncRuns(self)
        """Run turns, stream them, answer required actions, cancel."""
        self.with_raw_response = AsyncRawResponses(self)
        """The same calls, returning a ``RawResponse`` (status, headers, ``.parse()``)."""

    @property
    def options(self) -> Options:
        """This client's configuration."""
        return self._options

    def with_options(self, **changes: Any) -> AsyncAgenticDriver:
        """A new client with some options changed; this one is left as it was.

        Accepts ``base_url``, ``token``, ``timeout``, ``max_retries``,
        ``default_headers`` and ``stream_idle_timeout``. The copy has its own
        connection pool (close it too) and shares this client's transport and ``ca_bundle``.

            patient = client.with_options(timeout=600, max_retries=5)
        """
        options = self._options.evolve(**changes)
        return AsyncAgenticDriver(
            base_url=options.base_url,
            token=options.token,
            timeout=options.timeout,
            max_retries=options.max_retries,
            default_headers=options.default_headers,
            stream_idle_timeout=options.stream_idle_timeout,
            transport=self._transport,
            ca_bundle=self._ca_bundle,
        )

    async def discovery(self) -> Discovery:
        """What this token may use on the host (``getDiscovery``).

        for provider in await client.discovery().providers:
            print(provider.id, provider.models)
        """
        return await self._call(plans.discovery())

    @overload
    async def run(
        self,
        *,
        provider: str,
        model: str,
        input: str,
        session: Handle,
        tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
        idle_timeout_ms: int | None = None,
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> SessionRunResult: ...

    @overload
    async def run(
        self,
        *,
        provider: str,
        model: str,
        input: str,
        session: None = None,
        instructions: str | None = None,
        history: Sequence[Message | Mapping[str, Any]] | None = None,
        attachments: Sequence[Mapping[str, Any]] | None = None,
        retrieval: Mapping[str, Any] | None = None,
        tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
        idle_timeout_ms: int | None = None,
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> RunResult: ...

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
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> RunResult:
        """Run one turn; the same as ``runs.create(...)``.

        result = await client.run(provider="echo", model="echo-1", input="Hello", session=session)
        print(result.output.text)
        session = result.session  # the next revision (a SessionInfo: the overload says so)
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
            action_timeout_ms=action_timeout_ms,
        )
        if session is None:
            return await self._call(plans.run(body, idempotency_key))
        return await self._call(plans.session_run(body, idempotency_key))

    async def reconcile(self, session_id: str, sent: Handle) -> Reconciliation:
        """After a lost answer: did the turn sent with handle ``sent`` land, and what did it reply?

        Reads the session (which does not extend its retention) and compares
        revisions. Nothing is retried or created for you.

            try:
                result = await client.run(provider="echo", model="echo-1", input=text, session=handle)
            except APIConnectionError:
                state = await client.reconcile(handle.id, handle)
                if state.landed:
                    print("it landed:", state.reply)
                elif state.interrupted is not None:
                    print("interrupted; fork to go on")
                else:
                    print("not landed; send it again with", state.session.handle)
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
        """Create a new session from a chosen part of this one's visible history.

        Explicit by design: the host never converts or falls back on its own.
        ``keep`` is None (all), the number of last messages, a slice, or a
        function of the history returning the messages to keep. Provider, model
        and mode default to the original's; instructions too, unless given
        (``None`` drops them).

            fresh = await client.fork(interrupted_id, keep=4)
            other = await client.fork(session_id, provider="echo", model="echo-2", keep=slice(0, 2))
            users = await client.fork(session_id, keep=lambda h: [m for m in h if m.role == "user"])
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
        attempt, host, followed = 0, call.host, False
        while True:
            failure: AgenticDriverError
            headers = call.headers(host)
            try:
                response = await self._http.request(call.method, call.path, json=call.body, headers=headers)
            except httpx.TransportError as error:
                failure = connection_error(error)
            else:
                if response.is_success:
                    log_attempt(call.method, call.path, attempt, response, None)
                    capture(response)
                    return _parse(call, response)
                failure = error_from_response(response, response.content)
                if call.missing_means_done and attempt > 0 and isinstance(failure, NotFoundError):
                    log_attempt(call.method, call.path, attempt, response, None)
                    capture(response)
                    return call.parse(None)
            owner = misdirected_owner(failure, followed)
            if owner is not None:  # once, at once, and not one of the retries
                log_attempt(call.method, call.path, attempt, failure, 0.0)
                host, followed = owner, True
                continue
            delay = retry_delay(failure, attempt, self._options, call.method)
            log_attempt(call.method, call.path, attempt, failure, delay)
            if delay is None:
                raise failure
            await _asleep(delay)
            attempt += 1

    async def _open_stream(self, path: str, body: dict[str, Any], key: str, host: str | None) -> httpx.Response:
        """The stream's ``200`` answer (not yet read), after the retries of a plain POST."""
        attempt, followed = 0, False
        while True:
            failure: AgenticDriverError
            request = self._http.build_request("POST", path, json=body, headers=_stream_headers(key, host))
            try:
                response = await self._http.send(request, stream=True)
            except httpx.TransportError as error:
                failure = connection_error(error)
            else:
                if response.is_success:
                    log_attempt("POST", path, attempt, response, None)
                    return response
                try:
                    failure = error_from_response(response, await response.aread())
                except httpx.TransportError as error:
                    failure = connection_error(error)
                finally:
                    await response.aclose()
            owner = misdirected_owner(failure, followed)
            if owner is not None:  # once, at once, and not one of the retries
                log_attempt("POST", path, attempt, failure, 0.0)
                host, followed = owner, True
                continue
            delay = retry_delay(failure, attempt, self._options)
            log_attempt("POST", path, attempt, failure, delay)
            if delay is None:
                raise failure
            await _asleep(delay)
            attempt += 1

    def _stream(
        self, path: str, body: dict[str, Any], key: str, parse: Callable[[Any], R], host: str | None
    ) -> AsyncRunStream[R]:
        idle = self._options.stream_idle_timeout
        return AsyncRunStream(lambda: self._open_stream(path, body, key, host), parse, idle)


class AsyncSessions:
    """``client.sessions``: create, read, truncate and delete sessions; wait until one is idle."""

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
        """Create a session (``createSession``); returns its ``SessionInfo`` at revision 0.

        ``mode`` is ``"history"`` (user text and final assistant text) or
        ``"native"`` (also the provider's own state, kept inside the host).
        ``history`` imports earlier messages as generated ``Message`` models or
        ``{"role": ..., "content": ...}`` dicts.

            session = await client.sessions.create(provider="echo", model="echo-1", mode="history")
            print(session.id, session.revision)  # ses_..., 0
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
        """Metadata, instructions, visible history and turns (``readSession``); does not extend retention.

        read = await client.sessions.read(session.id)
        for message in read.history:
            print(message.role, message.content)
        """
        return await self._client._call(plans.read_session(session_id))

    async def truncate(self, session: Handle, *, keep_turns: int) -> SessionInfo:
        """Keep only the first ``keep_turns`` turns (``truncateSession``); returns the session at its next revision.

        ``session`` is the handle you believe current (a stale one is
        ``SessionRevisionConflictError``); truncating an interrupted session makes
        it ready again. Sends no Idempotency-Key (the operation takes none).

            session = await client.sessions.truncate(result.session, keep_turns=1)
        """
        return await self._client._call(plans.truncate_session(session, keep_turns))

    async def delete(self, session_id: str) -> None:
        """Delete the session and abort its active turn (``deleteSession``).

        A retry after a lost answer that finds the session gone counts as done.

            await client.sessions.delete(session.id)
        """
        await self._client._call(plans.delete_session(session_id))

    async def wait_until_idle(
        self,
        session_id: str,
        *,
        busy: SessionBusyError | None = None,
        timeout: float = DEFAULT_IDLE_TIMEOUT,  # noqa: ASYNC109 - the bound of clients/BEHAVIOUR.md, as in the sync form
    ) -> ReadSessionResponse:
        """Wait until the session has no active turn; returns that read (current revision, history, turns).

        The helper for ``SESSION_BUSY``, which is never retried: retrying the same
        handle would meet a certain revision conflict once the busy turn completes.
        Waits ``busy.retry_after`` first (or 0.1 s), then reads, doubling the
        interval up to 1 s, for at most ``timeout`` seconds (then ``APITimeoutError``).
        Status ``ready`` or ``interrupted`` ends the wait; you decide what to send next.

            try:
                result = await client.run(provider="echo", model="echo-1", input=text, session=session)
            except SessionBusyError as error:
                read = await client.sessions.wait_until_idle(session.id, busy=error)
                result = await client.run(provider="echo", model="echo-1", input=text, session=read.session)
        """
        deadline = time.monotonic() + timeout
        for wait in idle_waits(busy):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise idle_timeout_error(session_id, timeout)
            await _asleep(min(wait, remaining))
            read = await self.read(session_id)
            if str(read.session.status) != "running":
                return read
        raise AssertionError("unreachable")  # pragma: no cover - idle_waits never ends


class AsyncRuns:
    """``client.runs``: run turns (plain or streamed), answer required actions, cancel."""

    def __init__(self, client: AsyncAgenticDriver) -> None:
        self._client = client

    @overload
    async def create(
        self,
        *,
        provider: str,
        model: str,
        input: str,
        session: Handle,
        tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
        idle_timeout_ms: int | None = None,
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> SessionRunResult: ...

    @overload
    async def create(
        self,
        *,
        provider: str,
        model: str,
        input: str,
        session: None = None,
        instructions: str | None = None,
        history: Sequence[Message | Mapping[str, Any]] | None = None,
        attachments: Sequence[Mapping[str, Any]] | None = None,
        retrieval: Mapping[str, Any] | None = None,
        tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
        idle_timeout_ms: int | None = None,
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> RunResult: ...

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
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> RunResult:
        """Run one turn (``run``): stateless, or continuing ``session``.

        ``session`` is a ``SessionInfo`` (from ``sessions.create`` or a result's
        ``.session``), a ``SessionHandle`` or ``{"id": ..., "revision": ...}``; the
        result is then a ``SessionRunResult`` whose ``.session`` is the next revision.
        Stateless runs may send ``instructions``, ``history``, ``attachments``
        and ``retrieval``; ``tools`` declares functions the application runs
        itself (the result then has ``status == "requires_action"``);
        ``action_timeout_ms`` ends such a run as cancelled (``action_timeout``)
        when a required action is not answered that long.

            result = await client.runs.create(provider="echo", model="echo-1", input="Hi", session=session)
            print(result.output.text, result.session.revision)
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
            action_timeout_ms=action_timeout_ms,
        )
        if session is None:
            return await self._client._call(plans.run(body, idempotency_key))
        return await self._client._call(plans.session_run(body, idempotency_key))

    @overload
    def stream(
        self,
        *,
        provider: str,
        model: str,
        input: str,
        session: Handle,
        tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
        idle_timeout_ms: int | None = None,
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> AsyncRunStream[SessionRunResult]: ...

    @overload
    def stream(
        self,
        *,
        provider: str,
        model: str,
        input: str,
        session: None = None,
        instructions: str | None = None,
        history: Sequence[Message | Mapping[str, Any]] | None = None,
        attachments: Sequence[Mapping[str, Any]] | None = None,
        retrieval: Mapping[str, Any] | None = None,
        tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
        idle_timeout_ms: int | None = None,
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> AsyncRunStream[RunResult]: ...

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
        action_timeout_ms: int | None = None,
        idempotency_key: str | None = None,
    ) -> AsyncRunStream[RunResult] | AsyncRunStream[SessionRunResult]:
        """``streamRun``: one turn as a ``AsyncRunStream`` of typed events; the same arguments as ``create``.

        The request is sent when the stream is entered or first iterated. A refusal
        before the stream starts raises the same errors as ``create``.

            from agentic_driver_client.models import OutputDeltaEvent

            async with client.runs.stream(provider="echo", model="echo-1", input="Hi", session=session) as stream:
                async for event in stream:
                    if isinstance(event, OutputDeltaEvent):
                        print(event.text, end="", flush=True)
            session = (await stream.final_run()).session
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
            action_timeout_ms=action_timeout_ms,
        )
        key = idempotency_key or new_key()
        if session is None:
            return self._client._stream("/v1/runs/stream", body, key, parse_run_result, None)
        host = session_host(body)
        return self._client._stream("/v1/runs/stream", body, key, parse_session_run_result, host)

    async def submit_actions(
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
        The result is a ``SessionRunResult`` when the run had a session.

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
    ) -> AsyncRunStream[RunResult]:
        """``streamRunActions``: answer a waiting run and stream the rest of its turn (a ``AsyncRunStream``).

        async with client.runs.stream_actions(run_id, function_results={call_id: "42"}) as stream:
            async for event in stream:
                ...
        """
        body = plans.actions_body(function_results, approvals)
        path = plans.actions_stream_path(run_id)
        key = idempotency_key or new_key()
        return self._client._stream(path, body, key, parse_run_result, host_of(run_id))

    async def cancel(self, run_id: str) -> CancelRunResponse:
        """Cancel an active run of yours (``cancelRun``; sends no Idempotency-Key).

        Before model work started the session stays ``ready``; after, it is
        ``interrupted``. The run's own request gets ``RunCancelledError``.

            cancelled = await client.runs.cancel(run_id)
        """
        return await self._client._call(plans.cancel(run_id))


class AsyncRawResponses:
    """``client.with_raw_response``: each call with the same arguments, returning a ``RawResponse``.

        raw = await client.with_raw_response.sessions.create(provider="echo", model="echo-1")
        print(raw.status_code, raw.headers["x-request-id"], raw.parse().id)

    Errors carry their answer always (``error.response``, ``error.headers``);
    a stream's answer is ``stream.response``.
    """

    def __init__(self, client: AsyncAgenticDriver) -> None:
        self.discovery = araw(client.discovery)
        self.run = araw(client.run)
        self.sessions = AsyncRawSessions(client.sessions)
        self.runs = AsyncRawRuns(client.runs)


class AsyncRawSessions:
    """``client.with_raw_response.sessions``."""

    def __init__(self, sessions: AsyncSessions) -> None:
        self.create = araw(sessions.create)
        self.read = araw(sessions.read)
        self.truncate = araw(sessions.truncate)
        self.delete = araw(sessions.delete)


class AsyncRawRuns:
    """``client.with_raw_response.runs``."""

    def __init__(self, runs: AsyncRuns) -> None:
        self.create = araw(runs.create)
        self.submit_actions = araw(runs.submit_actions)
        self.cancel = araw(runs.cancel)
