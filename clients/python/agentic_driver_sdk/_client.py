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

Both are built from one description: the request of every operation is planned in
``_plans``, a run's arguments are declared once in ``_arguments``, the retries and
the 421 hop of every call are decided in ``_attempts``; a client only sends, reads
and sleeps (``_send``, ``_attempt``, ``_pause``), and ``client.sessions`` /
``client.runs`` (``_resources``) name a plan per method.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, Unpack, overload

import httpx

from ._attempts import Attempts
from ._base import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_STREAM_IDLE_TIMEOUT,
    DEFAULT_TIMEOUT,
    Options,
    configure_logging,
    connection_error,
)
from ._exceptions import AgenticDriverError
from ._plans import Call, plans
from ._raw import AsyncRawResponses, RawResponses, capture
from ._recovery import UNCHANGED, Keep, Reconciliation, _fork_arguments, _Unchanged, reconciliation_of
from ._resources import AsyncRuns, AsyncSessions, Runs, Sessions
from ._stream import AsyncRunStream, RunStream
from ._tls import CABundle, ssl_verification
from ._tokens import AsyncTokenProvider, TokenProvider, aasked, asked

if TYPE_CHECKING:
    from agentic_driver_client.models import (
        Discovery,
        Message,  # noqa: F401 - the API reference resolves ``Keep`` here
        RunResult,
        SessionInfo,
    )

    from ._arguments import Handle, RunArguments, SessionRunArguments
    from ._models import SessionRunResult

__all__ = ["AgenticDriver", "AsyncAgenticDriver"]

T = TypeVar("T")
R = TypeVar("R", bound="RunResult")

# Indirections so tests can observe backoff without waiting it out.
_sleep = time.sleep


async def _asleep(seconds: float) -> None:
    import asyncio  # not at module level: it is most of what this package would add to importing httpx

    await asyncio.sleep(seconds)


def _settings(
    options: Options, transport: httpx.BaseTransport | httpx.AsyncBaseTransport | None, ca_bundle: CABundle | None
) -> dict[str, Any]:
    """The httpx client's settings (the same for ``httpx.Client`` and ``httpx.AsyncClient``)."""
    verify = ssl_verification(ca_bundle, transport)
    return {"base_url": options.base_url, "headers": options.headers(), "timeout": options.timeout, "verify": verify}


def _copy(options: Options, changes: dict[str, Any]) -> dict[str, Any]:
    """A client's constructor arguments with ``changes`` applied (``with_options``)."""
    evolved = options.evolve(**changes)
    names = ("base_url", "token", "timeout", "max_retries", "default_headers", "stream_idle_timeout")
    return {name: getattr(evolved, name) for name in names}


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
        token: str | TokenProvider | AsyncTokenProvider | None = None,
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
        self._http = httpx.Client(transport=transport, **_settings(self._options, transport, ca_bundle))
        self.sessions = Sessions(self)
        """Create, read, truncate, fork and delete sessions; wait until one is idle."""
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
        copied = _copy(self._options, changes)
        return AgenticDriver(**copied, transport=self._transport, ca_bundle=self._ca_bundle)

    def discovery(self) -> Discovery:
        """What this token may use on the host (``getDiscovery``).

        for provider in client.discovery().providers:
            print(provider.id, provider.models)
        """
        return self._call(plans.discovery())

    @overload
    def run(self, *, session: Handle, **arguments: Unpack[SessionRunArguments]) -> SessionRunResult: ...

    @overload
    def run(self, *, session: None = None, **arguments: Unpack[RunArguments]) -> RunResult: ...

    def run(self, *, session: Handle | None = None, **arguments: Unpack[RunArguments]) -> RunResult:
        """Run one turn; the same as ``runs.create(...)``.

        result = client.run(provider="echo", model="echo-1", input="Hello", session=session)
        print(result.output.text)
        session = result.session  # the next revision (a SessionInfo: the overload says so)
        """
        return self._call(plans.run(session, arguments))

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
        response = self._send(call)
        capture(response)
        return call.result(response)

    def _stream(self, call: Call[R]) -> RunStream[R]:
        return RunStream(call, lambda attempts: self._send_attempts(attempts, stream=True), self._pause, self._options)

    def _send(self, call: Call[Any], *, stream: bool = False) -> httpx.Response:
        """The answer that ends ``call`` (a stream's ``200``, not yet read), after its retries and 421 hop."""
        return self._send_attempts(Attempts(call, self._options), stream=stream)

    def _send_attempts(self, attempts: Attempts, *, stream: bool) -> httpx.Response:
        """The answer that ends the request ``attempts`` stands at, drawing on its retry budget."""
        while (answer := attempts.finish(self._attempt(self._request(attempts), stream))) is None:
            if attempts.wait is not None:
                self._pause(attempts.wait)
        return answer

    def _request(self, attempts: Attempts) -> httpx.Request:
        """The attempt's request, with the token provider's token when the client has one."""
        request = attempts.request(self._http)
        provider = self._options.token_provider
        if provider is not None:
            attempts.sent_token = asked(provider, attempts.refused, request)  # type: ignore[arg-type]
            attempts.refused = None
        return request

    def _attempt(self, request: httpx.Request, stream: bool) -> httpx.Response | AgenticDriverError:
        """One attempt's answer (an error answer's body read, and closed when streamed), or why none came."""
        try:
            response = self._http.send(request, stream=stream)
        except httpx.TransportError as error:
            return connection_error(error)
        if stream and not response.is_success:
            try:
                response.read()
            except httpx.TransportError as error:
                return connection_error(error)
            finally:
                response.close()
        return response

    def _pause(self, seconds: float) -> None:
        _sleep(seconds)


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
        token: str | AsyncTokenProvider | None = None,
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
        self._http = httpx.AsyncClient(transport=transport, **_settings(self._options, transport, ca_bundle))
        self.sessions = AsyncSessions(self)
        """Create, read, truncate, fork and delete sessions; wait until one is idle."""
        self.runs = AsyncRuns(self)
        """Run turns, stream them, answer required actions, cancel."""
        self.with_raw_response = AsyncRawResponses(self)
        """The same calls, returning a ``RawResponse`` (status, headers, ``.parse()``)."""

    @property
    def options(self) -> Options:
        """This client's configuration."""
        return self._options

    def with_options(self, **changes: Any) -> AsyncAgenticDriver:
        """A new client with some options changed, as ``AgenticDriver.with_options``.

        patient = client.with_options(timeout=600, max_retries=5)
        """
        copied = _copy(self._options, changes)
        return AsyncAgenticDriver(**copied, transport=self._transport, ca_bundle=self._ca_bundle)

    async def discovery(self) -> Discovery:
        """What this token may use on the host (``getDiscovery``).

        for provider in (await client.discovery()).providers:
            print(provider.id, provider.models)
        """
        return await self._call(plans.discovery())

    @overload
    async def run(self, *, session: Handle, **arguments: Unpack[SessionRunArguments]) -> SessionRunResult: ...

    @overload
    async def run(self, *, session: None = None, **arguments: Unpack[RunArguments]) -> RunResult: ...

    async def run(self, *, session: Handle | None = None, **arguments: Unpack[RunArguments]) -> RunResult:
        """Run one turn; the same as ``runs.create(...)``.

        result = await client.run(provider="echo", model="echo-1", input="Hello", session=session)
        print(result.output.text)
        session = result.session  # the next revision (a SessionInfo: the overload says so)
        """
        return await self._call(plans.run(session, arguments))

    async def reconcile(self, session_id: str, sent: Handle) -> Reconciliation:
        """After a lost answer: did the turn sent with handle ``sent`` land? As ``AgenticDriver.reconcile``.

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
        """A new session from a chosen part of this one's visible history, as ``AgenticDriver.fork``.

        fresh = await client.fork(interrupted_id, keep=4)
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
        response = await self._send(call)
        capture(response)
        return call.result(response)

    def _stream(self, call: Call[R]) -> AsyncRunStream[R]:
        send = lambda attempts: self._send_attempts(attempts, stream=True)  # noqa: E731
        return AsyncRunStream(call, send, self._pause, self._options)

    async def _send(self, call: Call[Any], *, stream: bool = False) -> httpx.Response:
        """The answer that ends ``call`` (a stream's ``200``, not yet read), after its retries and 421 hop."""
        return await self._send_attempts(Attempts(call, self._options), stream=stream)

    async def _send_attempts(self, attempts: Attempts, *, stream: bool) -> httpx.Response:
        """The answer that ends the request ``attempts`` stands at, drawing on its retry budget."""
        while (answer := attempts.finish(await self._attempt(await self._request(attempts), stream))) is None:
            if attempts.wait is not None:
                await self._pause(attempts.wait)
        return answer

    async def _request(self, attempts: Attempts) -> httpx.Request:
        """The attempt's request, with the token provider's token when the client has one."""
        request = attempts.request(self._http)
        provider = self._options.token_provider
        if provider is not None:
            attempts.sent_token = await aasked(provider, attempts.refused, request)
            attempts.refused = None
        return request

    async def _attempt(self, request: httpx.Request, stream: bool) -> httpx.Response | AgenticDriverError:
        """One attempt's answer (an error answer's body read, and closed when streamed), or why none came."""
        try:
            response = await self._http.send(request, stream=stream)
        except httpx.TransportError as error:
            return connection_error(error)
        if stream and not response.is_success:
            try:
                await response.aread()
            except httpx.TransportError as error:
                return connection_error(error)
            finally:
                await response.aclose()
        return response

    async def _pause(self, seconds: float) -> None:
        await _asleep(seconds)
