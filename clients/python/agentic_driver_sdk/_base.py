"""What the sync and async clients share: options, request plans, retry policy, parsing."""

from __future__ import annotations

import logging
import os
import random
import re
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar
from urllib.parse import quote

import httpx

from ._exceptions import (
    AgenticDriverError,
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    MisdirectedRequestError,
    SessionBusyError,
)

if TYPE_CHECKING:
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
    from agentic_driver_client.types import Unset

    from ._models import SessionRunResult

__all__ = [
    "DEFAULT_STREAM_IDLE_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "ROUTING_HEADER",
    "USER_AGENT",
    "Call",
    "Handle",
    "Options",
    "host_of",
    "log_attempt",
    "misdirected_owner",
    "plans",
    "retry_delay",
]

T = TypeVar("T")

if TYPE_CHECKING:
    Handle: TypeAlias = SessionHandle | SessionInfo | Mapping[str, Any] | Unset
    """What ``session=`` accepts: a ``SessionHandle``, a ``SessionInfo`` or ``{"id": ..., "revision": ...}``.

    ``Unset`` is in the type only so that ``session=result.session`` type-checks for a
    ``RunResult`` whose kind is not known statically (``runs.submit_actions``); passing
    an unset session raises ``ValueError`` rather than silently running a stateless turn."""

__version__ = "0.2.0"
USER_AGENT = f"agentic-driver-python/{__version__}"
DEFAULT_BASE_URL = "http://127.0.0.1:8080"
DEFAULT_TIMEOUT = httpx.Timeout(connect=5.0, read=600.0, write=30.0, pool=30.0)
"""A turn may take minutes; connecting should not."""
DEFAULT_STREAM_IDLE_TIMEOUT = 60.0
"""The longest silence between two events of a stream (the host sends a keep-alive every 15 s)."""
DEFAULT_MAX_RETRIES = 2
INITIAL_RETRY_DELAY = 0.5
MAX_RETRY_DELAY = 8.0
"""The longest backoff between attempts when the host does not say how long to wait."""
MAX_RETRY_AFTER = 60.0
"""The longest ``Retry-After`` the client waits out by itself; a longer ask is raised to the caller."""
RETRIED_CODES = frozenset(
    {"HOST_BUSY", "SESSION_STORE_FULL", "SHUTTING_DOWN", "HOST_UNAVAILABLE", "IDEMPOTENCY_KEY_IN_USE"}
)
"""Problem codes retried (after ``Retry-After``); every other code of ours never is (``clients/BEHAVIOUR.md``)."""
PROXY_STATUSES = frozenset({502, 503, 504})
"""Statuses retried when the answer is not a problem document of ours (a proxy's page)."""

ROUTING_HEADER = "Agentic-Host"
"""Names the host that owns the session or run a request is about (``clients/BEHAVIOUR.md``, Routing)."""
_ROUTED_ID = re.compile(r"(?:ses|run)_([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)\.")
_HOST_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")


def host_of(object_id: str) -> str | None:
    """The owning host of a session or run id (``ses_{hostId}.{random}``, ``run_{hostId}.{random}``).

    None for an id in the old form (no ``.``) or whose host part is not a DNS label:
    such a request carries no ``Agentic-Host`` header. Only routing reads this;
    applications treat ids as opaque.
    """
    found = _ROUTED_ID.match(object_id)
    return found.group(1) if found else None


def misdirected_owner(error: AgenticDriverError, followed: bool) -> str | None:
    """The host to send the same request to at once, when ``error`` is the first 421 of this call."""
    if followed or not isinstance(error, MisdirectedRequestError):
        return None
    owner = error.owner_host_id
    return owner if _HOST_LABEL.fullmatch(owner) else None


log = logging.getLogger("agentic_driver_sdk")
"""One debug line per attempt: method, path, status or failure, attempt, wait, request id. Never a token or body."""


def configure_logging() -> None:
    """``AGENTIC_DRIVER_LOG=debug`` (read when a client is built): debug lines on standard error."""
    if os.environ.get("AGENTIC_DRIVER_LOG", "").strip().lower() != "debug":
        return
    log.setLevel(logging.DEBUG)
    if not any(getattr(h, "_agentic_driver", False) for h in log.handlers):
        handler = logging.StreamHandler()  # standard error
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
        handler._agentic_driver = True  # type: ignore[attr-defined]
        log.addHandler(handler)


def log_attempt(
    method: str, path: str, attempt: int, outcome: httpx.Response | AgenticDriverError, wait: float | None
) -> None:
    """The attempt's debug line (only the method, path, status, attempt, wait and request id)."""
    if not log.isEnabledFor(logging.DEBUG):
        return
    response = outcome if isinstance(outcome, httpx.Response) else getattr(outcome, "response", None)
    if response is not None:
        status = str(response.status_code)
    else:  # no answer: the SDK's error and the httpx failure behind it, by class name only
        cause = outcome.__cause__ if isinstance(outcome, BaseException) else None
        status = type(outcome).__name__ + (f"({type(cause).__name__})" if cause is not None else "")
    request_id = response.headers.get("x-request-id") if response is not None else None
    retry = f" retry_in={wait:.3f}s" if wait is not None else ""
    log.debug("%s %s status=%s attempt=%d%s request_id=%s", method, path, status, attempt + 1, retry, request_id)


@dataclass(frozen=True)
class Options:
    """A client's configuration; ``with_options(...)`` copies it with some fields changed."""

    base_url: str
    """The host's base URL, without a trailing slash."""
    token: str | None
    """The bearer token, or None to send no ``Authorization`` header."""
    timeout: httpx.Timeout
    """Connect (default 5 s), read (600 s), write and pool timeouts (``httpx.Timeout(10, connect=2)``)."""
    max_retries: int
    """Attempts after the first, for failures that are safe to retry (default 2; 0 turns retries off)."""
    default_headers: Mapping[str, str] = field(default_factory=dict)
    """Sent with every request (a ``User-Agent`` here replaces the client's; ``Authorization`` never wins)."""
    stream_idle_timeout: float = DEFAULT_STREAM_IDLE_TIMEOUT
    """The longest silence between two events of a stream, in seconds (default 60)."""

    @classmethod
    def resolve(
        cls,
        base_url: str | None,
        token: str | None,
        timeout: float | httpx.Timeout | None,
        max_retries: int,
        default_headers: Mapping[str, str] | None,
        stream_idle_timeout: float,
    ) -> Options:
        """Arguments first, then ``AGENTIC_DRIVER_URL`` / ``AGENTIC_DRIVER_TOKEN``, then defaults."""
        if max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        if stream_idle_timeout <= 0:
            raise ValueError("stream_idle_timeout must be positive")
        return cls(
            base_url=(base_url or os.environ.get("AGENTIC_DRIVER_URL") or DEFAULT_BASE_URL).rstrip("/"),
            token=token if token is not None else os.environ.get("AGENTIC_DRIVER_TOKEN"),
            timeout=timeout if isinstance(timeout, httpx.Timeout) else _timeout(timeout),
            max_retries=max_retries,
            default_headers=dict(default_headers or {}),
            stream_idle_timeout=float(stream_idle_timeout),
        )

    def headers(self) -> httpx.Headers:
        """``Accept`` and ``User-Agent``, then the default headers, then ``Authorization`` (case-insensitively last)."""
        headers = httpx.Headers({"Accept": "application/json", "User-Agent": USER_AGENT})
        headers.update(self.default_headers)
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    def evolve(self, **changes: Any) -> Options:
        unknown = set(changes) - {f for f in self.__dataclass_fields__}
        if unknown:
            raise TypeError(f"unknown options: {', '.join(sorted(unknown))}")
        if "timeout" in changes and not isinstance(changes["timeout"], httpx.Timeout):
            changes["timeout"] = _timeout(changes["timeout"])
        if "base_url" in changes:
            changes["base_url"] = str(changes["base_url"]).rstrip("/")
        if changes.get("max_retries", 0) < 0:
            raise ValueError("max_retries must be 0 or more")
        if changes.get("stream_idle_timeout", 1.0) <= 0:
            raise ValueError("stream_idle_timeout must be positive")
        return replace(self, **changes)


def _timeout(seconds: float | None) -> httpx.Timeout:
    return DEFAULT_TIMEOUT if seconds is None else httpx.Timeout(seconds, connect=min(seconds, 5.0))


@dataclass(frozen=True)
class Call(Generic[T]):
    """One logical API call: what to send and how to read a success."""

    method: str
    path: str
    parse: Callable[[Any], T]
    body: Mapping[str, Any] | None = None
    idempotency_key: str | None = None
    """Sent on every attempt of a POST, so a retry can never run a turn twice."""
    missing_means_done: bool = False
    """A DELETE retried after a lost answer finds nothing: the first attempt did the work."""
    host: str | None = None
    """The host that owns the session or run the call names (``Agentic-Host``), from its id."""

    def headers(self, host: str | None) -> dict[str, str]:
        """This attempt's own headers; ``host`` is ``self.host``, or the owner a 421 named."""
        headers = {"Idempotency-Key": self.idempotency_key} if self.idempotency_key else {}
        if host is not None:
            headers[ROUTING_HEADER] = host
        return headers


def connection_error(error: httpx.TransportError) -> APIConnectionError:
    """The SDK's error for an httpx transport failure (the httpx error is its ``__cause__``)."""
    from ._exceptions import APITimeoutError

    try:
        request: httpx.Request | None = error.request
    except RuntimeError:  # httpx raises when the error was made without a request
        request = None
    if isinstance(error, httpx.TimeoutException):
        failure: APIConnectionError = APITimeoutError(f"timed out: {error!r}", request=request)
    else:
        failure = APIConnectionError(f"connection failed: {error!r}", request=request)
    failure.__cause__ = error
    # A read timeout means we hung up on a request the host may have accepted: the host
    # stops (and records) a run whose client went away, so another attempt could only
    # replay that cancellation. Other transport errors either never delivered the request
    # or lost an answer that a replay with the same Idempotency-Key brings back.
    failure.hung_up = isinstance(error, httpx.ReadTimeout)
    return failure


def retryable(error: AgenticDriverError, method: str) -> bool:
    """Whether another attempt is safe and can help: the table of ``clients/BEHAVIOUR.md``."""
    if isinstance(error, APIConnectionError):
        return not (error.hung_up and method == "POST")
    if isinstance(error, APIStatusError):
        if error.headers.get("x-should-retry", "").strip().lower() == "false":
            return False
        if error.code is not None:  # a problem document of ours
            return error.code in RETRIED_CODES
        return error.status_code in PROXY_STATUSES
    return False


def retry_delay(error: AgenticDriverError, attempt: int, options: Options, method: str = "POST") -> float | None:
    """Seconds to wait before the next attempt, or None when this error must not be retried."""
    if attempt >= options.max_retries or not retryable(error, method):
        return None
    asked = error.retry_after if isinstance(error, APIStatusError) else None
    if asked is not None:
        return asked if asked <= MAX_RETRY_AFTER else None
    backoff = min(INITIAL_RETRY_DELAY * (1 << attempt), MAX_RETRY_DELAY)
    return backoff * random.uniform(0.75, 1.0)


IDLE_FIRST_WAIT = 0.1
IDLE_MAX_WAIT = 1.0
DEFAULT_IDLE_TIMEOUT = 30.0


def idle_waits(busy: SessionBusyError | None) -> Iterator[float]:
    """``wait_until_idle``'s intervals: the busy error's ``Retry-After`` (or 0.1 s), then doubling up to 1 s."""
    first = busy.retry_after if busy is not None else None
    wait = IDLE_FIRST_WAIT if first is None else first
    yield wait
    while True:
        wait = min(max(wait, IDLE_FIRST_WAIT) * 2, IDLE_MAX_WAIT)
        yield wait


def idle_timeout_error(session_id: str, timeout: float) -> APITimeoutError:
    from ._exceptions import APITimeoutError

    return APITimeoutError(f"session {session_id} was still running after {timeout:g} s (wait_until_idle)")


def _model(value: Any, model: Any) -> Any:
    """A generated model from itself or from a plain dict."""
    return model.from_dict(value) if isinstance(value, Mapping) else value


def session_handle(session: Handle) -> SessionHandle:
    """``{id, revision}`` from a handle, a ``SessionInfo`` or a dict with those keys."""
    from ._models import SessionHandle, SessionInfo, Unset

    if isinstance(session, SessionHandle):
        return session
    if isinstance(session, SessionInfo):
        return SessionHandle(id=session.id, revision=session.revision)
    if isinstance(session, Unset):
        raise ValueError("session is unset: that result came from a stateless run, which has no session")
    return SessionHandle(id=str(session["id"]), revision=int(session["revision"]))


def new_key() -> str:
    """A fresh Idempotency-Key for one logical call."""
    return str(uuid.uuid4())


def parse_run_result(data: Any) -> RunResult:
    """A ``RunResult`` (a ``SessionRunResult`` when it carries a session).

    A ``requiredAction`` of a type newer than this client stays as its dict: the
    generated parser tries each known action type and fails the whole result when
    none fits; the SDK keeps the run (its id and status) readable instead.
    """
    from ._models import RunResult, SessionRunResult

    cls = SessionRunResult if isinstance(data, Mapping) and data.get("session") is not None else RunResult
    action = data.get("requiredAction") if isinstance(data, Mapping) else None
    if isinstance(action, Mapping) and action.get("type") not in ("function_calls", "approvals"):
        result = cls.from_dict({k: v for k, v in data.items() if k != "requiredAction"})
        result.required_action = dict(action)  # type: ignore[assignment]
        return result
    return cls.from_dict(data)


def parse_session_run_result(data: Any) -> SessionRunResult:
    """The result of a run sent with a session (the host always returns the session then)."""
    result = parse_run_result(data)
    from ._models import SessionRunResult

    if not isinstance(result, SessionRunResult):
        raise ValueError("the host answered a session run without its session")
    return result


class plans:
    """Request plans for every operation; the clients only execute them."""

    @staticmethod
    def discovery() -> Call[Discovery]:
        from ._models import Discovery

        return Call("GET", "/v1/discovery", Discovery.from_dict)

    @staticmethod
    def create_session(
        *,
        provider: str,
        model: str,
        mode: str,
        instructions: str | None,
        history: Sequence[Message | Mapping[str, Any]] | None,
        idempotency_key: str | None,
    ) -> Call[SessionInfo]:
        from ._models import CreateSessionRequest, CreateSessionResponse, Message

        body = CreateSessionRequest.from_dict(
            _without_none(
                {
                    "provider": provider,
                    "model": model,
                    "mode": str(mode),
                    "instructions": instructions,
                    "history": None if history is None else [_model(m, Message).to_dict() for m in history],
                }
            )
        ).to_dict()
        return Call(
            "POST",
            "/v1/sessions",
            lambda data: CreateSessionResponse.from_dict(data).session,
            body=body,
            idempotency_key=idempotency_key or new_key(),
        )

    @staticmethod
    def read_session(session_id: str) -> Call[ReadSessionResponse]:
        from ._models import ReadSessionResponse

        path = f"/v1/sessions/{_segment(session_id, 'session_id')}"
        return Call("GET", path, ReadSessionResponse.from_dict, host=host_of(session_id))

    @staticmethod
    def delete_session(session_id: str) -> Call[None]:
        path = f"/v1/sessions/{_segment(session_id, 'session_id')}"
        return Call("DELETE", path, lambda _: None, missing_means_done=True, host=host_of(session_id))

    @staticmethod
    def run_body(
        *,
        provider: str,
        model: str,
        input: str,
        session: Handle | None,
        instructions: str | None,
        history: Sequence[Message | Mapping[str, Any]] | None,
        attachments: Sequence[Mapping[str, Any]] | None,
        retrieval: Mapping[str, Any] | None,
        tools: Sequence[ToolDefinition | Mapping[str, Any]] | None,
        idle_timeout_ms: int | None,
        action_timeout_ms: int | None = None,
    ) -> dict[str, Any]:
        # Built directly as the wire dict: a round trip through the generated RunRequest
        # (from_dict, then to_dict) checks nothing more and costs about as much as the
        # rest of the client's work on a turn.
        from ._models import Message, ToolDefinition

        body: dict[str, Any] = {"provider": provider, "model": model, "input": input}
        if session is not None:
            body["session"] = session_handle(session).to_dict()
        if instructions is not None:
            body["instructions"] = instructions
        if history is not None:
            body["history"] = [_model(m, Message).to_dict() for m in history]
        if attachments is not None:
            body["attachments"] = [dict(a) for a in attachments]
        if retrieval is not None:
            body["retrieval"] = dict(retrieval)
        if tools is not None:
            body["tools"] = [_model(t, ToolDefinition).to_dict() for t in tools]
        if idle_timeout_ms is not None:
            body["idleTimeoutMs"] = idle_timeout_ms
        if action_timeout_ms is not None:
            body["actionTimeoutMs"] = action_timeout_ms
        return body

    @staticmethod
    def run(body: dict[str, Any], idempotency_key: str | None) -> Call[RunResult]:
        return Call("POST", "/v1/runs", parse_run_result, body=body, idempotency_key=idempotency_key or new_key())

    @staticmethod
    def session_run(body: dict[str, Any], idempotency_key: str | None) -> Call[SessionRunResult]:
        key = idempotency_key or new_key()
        host = session_host(body)
        return Call("POST", "/v1/runs", parse_session_run_result, body=body, idempotency_key=key, host=host)

    @staticmethod
    def truncate_session(session: Handle, keep_turns: int) -> Call[SessionInfo]:
        """``truncateSession`` takes no Idempotency-Key: a repeat meets a revision conflict, never a second cut."""
        from ._models import CreateSessionResponse, TruncateSessionRequest

        handle = session_handle(session)
        body = TruncateSessionRequest(revision=handle.revision, keep_turns=keep_turns).to_dict()
        path = f"/v1/sessions/{_segment(handle.id, 'session_id')}/truncate"
        return Call(
            "POST",
            path,
            lambda data: CreateSessionResponse.from_dict(data).session,
            body=body,
            host=host_of(handle.id),
        )

    @staticmethod
    def actions_body(
        function_results: Sequence[Mapping[str, Any]] | Mapping[str, str] | None,
        approvals: Sequence[Mapping[str, Any]] | Mapping[str, bool] | None,
    ) -> dict[str, Any]:
        """Answers as lists of dicts, or as ``{call_id: output}`` / ``{call_id: approve}`` shortcuts."""
        from ._models import SubmitRunActionsRequest

        body: dict[str, Any] = {}
        if function_results is not None:
            body["functionResults"] = (
                [{"callId": k, "output": v} for k, v in function_results.items()]
                if isinstance(function_results, Mapping)
                else [dict(r) for r in function_results]
            )
        if approvals is not None:
            body["approvals"] = (
                [{"callId": k, "approve": v} for k, v in approvals.items()]
                if isinstance(approvals, Mapping)
                else [dict(a) for a in approvals]
            )
        return SubmitRunActionsRequest.from_dict(body).to_dict()

    @staticmethod
    def submit_actions(run_id: str, body: dict[str, Any], idempotency_key: str | None) -> Call[RunResult]:
        return Call(
            "POST",
            f"/v1/runs/{_segment(run_id, 'run_id')}/actions",
            parse_run_result,
            body=body,
            idempotency_key=idempotency_key or new_key(),
            host=host_of(run_id),
        )

    @staticmethod
    def actions_stream_path(run_id: str) -> str:
        return f"/v1/runs/{_segment(run_id, 'run_id')}/actions/stream"

    @staticmethod
    def cancel(run_id: str) -> Call[CancelRunResponse]:
        from ._models import CancelRunResponse

        path = f"/v1/runs/{_segment(run_id, 'run_id')}/cancel"
        return Call("POST", path, CancelRunResponse.from_dict, body=None, host=host_of(run_id))


def session_host(body: Mapping[str, Any]) -> str | None:
    """The owner of the session a run body names (a stateless run names none)."""
    session = body.get("session")
    return host_of(str(session["id"])) if isinstance(session, Mapping) else None


def _without_none(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def _segment(value: str, name: str) -> str:
    if not value:
        raise ValueError(f"{name} must not be empty")
    return quote(value, safe="")
