"""Serving the app: connection-level bounds and a graceful stop on SIGTERM.

``bounded_protocol`` is uvicorn's httptools protocol with three bounds from the
host's ``limits`` (uvicorn itself has none of them), and problems for the
requests its parser rejects:

- ``maxConnections``: a connection beyond is answered ``HOST_BUSY`` (``limit:
  maxConnections``, ``Retry-After``) and closed, while the open ones are served;
- ``maxHeaderBytes``: a request head that grows beyond is answered
  ``HEADERS_TOO_LARGE`` (431) and the connection closed;
- ``requestHeadTimeoutMs``: a connection that has not delivered a complete
  request head this long after it opened (or after its previous response) is
  closed, so idle and trickling connections do not pile up;
- bytes the HTTP parser rejects (a control byte in a header, a bad request line,
  target or Content-Length, a bad chunk size...) are answered
  ``MALFORMED_REQUEST`` (400) and the connection closed, instead of uvicorn's
  plain-text 400. Requests already parsed on the connection are answered first;
  a request whose own body turns out malformed is dropped (its handler sees a
  disconnect) unless its response has begun, when nothing more can be framed and
  the connection is closed after it.

``HostServer`` is uvicorn's server with a drain in front of its own graceful
shutdown. The first SIGTERM (or SIGINT) starts the drain: operations that start
new work answer ``SHUTTING_DOWN`` (listener and kept-alive connections stay
open meanwhile, so clients get the 503 rather than a reset), admitted turns may
finish until ``drainTimeoutMs``, those still active then are interrupted
(reason ``shutdown``); then, for ``drainReadWindowMs`` (0 by default), the host
goes on serving its own sessions' reads, deletes and cancels (new work is still
refused), so clients can read a session's history and carry on elsewhere; then
uvicorn closes the listener and the connections and the process exits 0. A
second signal stops at once, also during the window.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any, ClassVar

import orjson
import uvicorn
from uvicorn.config import STARTUP_FAILURE
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..config import LimitsConfig
from ..driver import Driver
from ..errors import DriverError, HeadersTooLarge, HostBusy, MalformedRequest
from ..metrics import Metrics
from ..request_context import mint_request_id
from .limits import BODY_RECEIVED, Drain
from .problems import PROBLEM_JSON

__all__ = ["HostServer", "bounded_protocol"]

log = logging.getLogger("agentic_driver.http")

LINGER_S = 1.0
"""After refusing a connection, how long the host keeps reading (and discarding) before it closes: closing
while the client still sends would reset the connection and could destroy the answer before it is read."""
GRACEFUL_CLOSE_S = 5.0
"""After the drain, how long uvicorn may wait for responses still being written before it cancels them."""


def _raw_problem(error: DriverError) -> bytes:
    """A complete HTTP/1.1 problem response that closes the connection (written before any app sees it).

    No request was read, so the request id is always a fresh one."""
    request_id = mint_request_id()
    body = orjson.dumps({**error.problem(), "requestId": request_id})
    head = [
        f"HTTP/1.1 {error.status} {error.title}",
        f"content-type: {PROBLEM_JSON}",
        f"content-length: {len(body)}",
        f"x-request-id: {request_id}",
        "connection: close",
    ]
    if error.retry_after_seconds is not None:
        head.append(f"retry-after: {error.retry_after_seconds}")
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


PARSER_REASON_MAX = 120
HEAD_TIMER_SLACK_S = 0.001
"""A head timer that fires this close to the current wait's deadline closes the connection rather than wait again
(event loops may run a timer up to their clock resolution early)."""


def _malformed(reason: BaseException | None) -> MalformedRequest:
    """The problem for bytes the parser rejected; its reason is kept to printable ASCII, never the raw bytes."""
    text = "".join(c for c in str(reason or "")[:PARSER_REASON_MAX] if " " <= c <= "~").strip()
    because = f" ({text})" if text else ""
    return MalformedRequest(f"The request is not valid HTTP/1.1{because}; the connection is closed.")


# Every request passes through BoundedProtocol's overrides (the parser calls on_header once per header), so they
# call uvicorn's methods directly, through these aliases, rather than through super() (a super object and an MRO
# walk apiece on 3.11), and the head deadline is one timer per connection, moved lazily, not a timer made and
# cancelled per request. bench/README.md ("The whole process, counted") has the instruction counts.
_base_connection_made = HttpToolsProtocol.connection_made
_base_data_received = HttpToolsProtocol.data_received
_base_on_header = HttpToolsProtocol.on_header
_base_on_headers_complete = HttpToolsProtocol.on_headers_complete
_base_on_body = HttpToolsProtocol.on_body
_base_on_message_complete = HttpToolsProtocol.on_message_complete
_base_on_response_complete = HttpToolsProtocol.on_response_complete
_base_connection_lost = HttpToolsProtocol.connection_lost


class BoundedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the host's connection, head size and head time bounds.

    Not served as it is: ``bounded_protocol`` makes the subclass that carries the configuration (the class
    attributes below without a value)."""

    _limits: ClassVar[LimitsConfig]
    _metrics: ClassVar[Metrics]
    _max_head_bytes: ClassVar[int]
    """``limits.maxHeaderBytes``."""
    _head_timeout_s: ClassVar[float]
    """``limits.requestHeadTimeoutMs``, in seconds."""

    _head_bytes = 0
    """Bytes received since the current request head began (all of them are head until it completes)."""
    _parsed_header_bytes = 0
    """The current request's header lines as parsed (for heads that complete within one read); with the
    URL (uvicorn keeps it whole in ``url``) that is the parsed head's size."""
    _awaiting_head = True
    _head_since = 0.0
    """When the host began waiting for the current request head (loop time)."""
    _refused = False
    _head_deadline: asyncio.TimerHandle | None = None
    """The connection's head timer: it fires at the earliest moment a head can be overdue, and moves itself
    to the current wait's deadline when that began later."""
    _malformed_after_response: MalformedRequest | None = None
    """A malformed request that followed complete ones: refused once their responses are written."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        _base_connection_made(self, transport)
        maximum = self._limits.maxConnections
        if len(self.connections) > maximum:
            self._refuse(
                HostBusy(
                    f"The host holds its maximum of {maximum} connections.",
                    maximum=maximum,
                    limit="maxConnections",
                )
            )
            return
        self._expect_head()

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # discard what still arrives until the lingering close
        if self._awaiting_head:
            self._head_bytes += len(data)
        _base_data_received(self, data)
        if self._awaiting_head and self._head_bytes > self._max_head_bytes:
            self._head_too_large()

    def on_header(self, name: bytes, value: bytes) -> None:
        self._parsed_header_bytes += len(name) + len(value) + 4
        _base_on_header(self, name, value)

    def on_headers_complete(self) -> None:
        self._awaiting_head = False
        if len(self.url) + self._parsed_header_bytes > self._max_head_bytes:
            self._head_too_large()
        if not self._refused:
            _base_on_headers_complete(self)

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            _base_on_body(self, body)

    def on_message_complete(self) -> None:
        self._parsed_header_bytes = 0  # the next request's head counts from here (trailers were this one's)
        if not self._refused:
            _base_on_message_complete(self)
            # Usually the whole body came with the head, before the app's task first runs: then
            # RequestGuard needs no body deadline for this request.
            self.cycle.scope[BODY_RECEIVED] = True  # type: ignore[literal-required]  # an extension key of ours

    def _head_too_large(self) -> None:
        if not self._refused:
            maximum = self._max_head_bytes
            self._refuse(HeadersTooLarge(f"The request head exceeds {maximum} bytes.", maximum=maximum))

    def send_400_response(self, msg: str) -> None:
        # uvicorn calls this from data_received's ``except HttpParserError`` (the only caller in the
        # httptools protocol), and logs its own fixed warning first: the parser's reason is the
        # exception being handled.
        error = _malformed(sys.exception())
        cycle = self.cycle
        if cycle is None or cycle.response_complete:
            self._refuse(error)
        elif not cycle.more_body:  # the bad bytes follow a complete request: answer that one first
            self._refused = True
            self._malformed_after_response = error
            self._cancel_deadline()
        elif not cycle.response_started and not self.pipeline:  # the request's own body is malformed
            cycle.disconnected = True
            cycle.message_event.set()
            self._refuse(error)
        else:  # a response is being written: no answer can be framed after it, only the close
            self._refused = True
            cycle.keep_alive = False

    def on_response_complete(self) -> None:
        _base_on_response_complete(self)
        if self.transport.is_closing():
            return
        pending = self._malformed_after_response
        if pending is None:
            self._expect_head()
        elif self.cycle is None or self.cycle.response_complete:  # every parsed request is answered
            self._malformed_after_response = None
            self._unset_keepalive_if_required()
            self._refuse(pending)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        _base_connection_lost(self, exc)

    def _expect_head(self) -> None:
        self._awaiting_head, self._head_bytes = True, 0
        self._head_since = now = self.loop.time()
        if self._head_deadline is None:
            self._head_deadline = self.loop.call_at(now + self._head_timeout_s, self._head_timed_out)

    def _head_timed_out(self) -> None:
        self._head_deadline = None
        if not self._awaiting_head or self.transport.is_closing():
            return  # a head arrived in time; the next wait for one sets the timer again
        due = self._head_since + self._head_timeout_s
        if due - self.loop.time() > HEAD_TIMER_SLACK_S:  # the current wait began after the timer was set
            self._head_deadline = self.loop.call_at(due, self._head_timed_out)
            return
        self.transport.close()  # nothing was asked: there is nobody to answer

    def _cancel_deadline(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _refuse(self, error: DriverError) -> None:
        """Answer with the problem, stop reading requests, and close after a short linger."""
        self._metrics.error_answered(error.code.value)
        self._refused = True
        self._cancel_deadline()
        self.transport.write(_raw_problem(error))
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_S, self.transport.close)


def bounded_protocol(limits: LimitsConfig, metrics: Metrics) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol with the host's connection, head size and head time bounds."""
    configuration = {
        "_limits": limits,
        "_metrics": metrics,
        "_max_head_bytes": limits.maxHeaderBytes,
        "_head_timeout_s": limits.requestHeadTimeoutMs / 1000,
    }
    return type("BoundedProtocol", (BoundedProtocol,), configuration)


class HostServer(uvicorn.Server):
    """uvicorn's server, draining the driver's turns before its own graceful shutdown; with ``metrics``, it
    also listens on the metrics address (same connection bounds and state, closed with the rest).

    ``drain_read_window_ms``: how long the drained host goes on serving reads before it closes (host JSON
    ``limits.drainReadWindowMs``; 0 closes as soon as the turns have ended).
    """

    def __init__(
        self,
        config: uvicorn.Config,
        driver: Driver,
        drain: Drain,
        drain_timeout_ms: int,
        metrics: uvicorn.Config | None = None,
        *,
        drain_read_window_ms: int = 0,
        on_reload: Callable[[], object] | None = None,
    ) -> None:
        super().__init__(config)
        self._on_reload = on_reload
        """Called in the event loop on SIGHUP (the CLI re-reads the bearer policy); absent: SIGHUP is not handled."""
        self._metrics_config = metrics
        self._driver = driver
        self._drain = drain
        self._drain_timeout_s = drain_timeout_ms / 1000
        self._read_window_s = drain_read_window_ms / 1000
        self._drain_task: asyncio.Task[None] | None = None
        self._stop_now: asyncio.Event | None = None
        """Set by a second signal: the read window, if it is open, ends at once."""
        self._loop: asyncio.AbstractEventLoop | None = None
        driver.metrics.open_connections.set_function(lambda: len(self.server_state.connections))

    async def serve(self, sockets: Any = None) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop_now = asyncio.Event()
        if self._on_reload is not None:
            self._loop.add_signal_handler(signal.SIGHUP, self._on_reload)  # a loop callback, not in the handler
        if self._driver.store is not None:
            self._driver.store.arm_timers()  # sessions restored from a snapshot before the loop ran
        try:
            await super().serve(sockets)
        finally:
            if self._on_reload is not None:
                self._loop.remove_signal_handler(signal.SIGHUP)
            await self._driver.aclose()  # the providers' pooled connections, in the loop that opened them

    async def startup(self, sockets: Any = None) -> None:
        await super().startup(sockets)
        metrics = self._metrics_config
        if metrics is None or self.should_exit:
            return
        if not metrics.loaded:
            metrics.load()
        state = self.server_state

        def protocol() -> asyncio.Protocol:
            made: asyncio.Protocol = metrics.http_protocol_class(  # type: ignore[call-arg]  # as uvicorn's startup
                config=metrics, server_state=state, app_state={}
            )
            return made

        try:
            listener = await asyncio.get_running_loop().create_server(
                protocol, host=metrics.host, port=metrics.port, ssl=metrics.ssl
            )
        except OSError as error:
            log.error("cannot listen for metrics on %s:%d: %s", metrics.host, metrics.port, error)
            for server in self.servers:
                server.close()
            sys.exit(STARTUP_FAILURE)  # as uvicorn does when the API address cannot be bound
        self.servers.append(listener)
        scheme = "https" if metrics.is_ssl else "http"
        log.info("metrics on %s://%s:%d/metrics", scheme, metrics.host, metrics.port)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        # Never re-raise the signal after serving (uvicorn does, which ends the process by the signal):
        # a drained stop is a clean exit.
        if self._drain.draining or self._loop is None or sig not in (signal.SIGTERM, signal.SIGINT):
            self.should_exit = True
            self.force_exit = self._drain.draining
            if self._loop is not None and self._stop_now is not None:
                self._loop.call_soon_threadsafe(self._stop_now.set)
            return
        self._drain.begin()
        self._loop.call_soon_threadsafe(self._start_drain)

    def _start_drain(self) -> None:
        self._drain_task = asyncio.create_task(self._drain_then_exit())

    async def _drain_then_exit(self) -> None:
        try:
            interrupted = await drain_driver(self._driver, self._drain_timeout_s, forget_ended_runs=False)
            if interrupted:
                log.warning("drain timeout passed: interrupted %d active run(s)", interrupted)
            if self._read_window_s > 0 and self._stop_now is not None and not self._stop_now.is_set():
                # Reads, deletes and cancels of this host's sessions (and its ended runs) are still served; the
                # listener stays open, /readyz still answers 503 and new work SHUTTING_DOWN.
                log.info(
                    "turns ended: serving reads of this host's sessions for %d ms before closing "
                    "(limits.drainReadWindowMs; a second signal closes at once)",
                    round(self._read_window_s * 1000),
                )
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop_now.wait(), self._read_window_s)
            self._driver.forget_ended_runs()
        finally:
            self.should_exit = True


async def drain_driver(driver: Driver, timeout_s: float, *, forget_ended_runs: bool = True) -> int:
    """Wait up to ``timeout_s`` for the driver's active runs to end; interrupt the rest. Returns how many.

    Then, unless ``forget_ended_runs`` is false (the caller frees them itself later), the ended runs kept for
    ``getRun`` and ``streamRunEvents`` are freed."""
    tasks = [run.task for run in driver.active_runs() if run.task is not None]
    if tasks:
        await asyncio.wait(tasks, timeout=timeout_s)
    left = driver.active_runs()
    for run in left:
        run.cancel("shutdown")
    for run in left:
        await run.settled()
    if forget_ended_runs:
        driver.forget_ended_runs()
    return len(left)
