"""Every operation as a request plan (a ``Call``): what to send and how to read a success.

The sync and async clients only execute plans (``_attempts.Attempts`` decides
retries); nothing here does I/O, so both clients are built from this one description.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar
from urllib.parse import quote

import httpx

from ._arguments import RunArguments, check_arguments
from ._base import ROUTING_HEADER, host_of
from ._operations import OPERATIONS, Operation

if TYPE_CHECKING:
    from agentic_driver_client.models import (
        CancelRunResponse,
        Discovery,
        Message,
        ReadSessionResponse,
        RunResult,
        RunState,
        SessionHandle,
        SessionInfo,
    )

    from ._arguments import Approvals, Disconnect, Handle, Results
    from ._models import SessionRunResult

__all__ = [
    "LAST_EVENT_ID_HEADER",
    "Call",
    "new_key",
    "parse_run_result",
    "parse_session_run_result",
    "plans",
    "session_handle",
    "session_id_of",
]

T = TypeVar("T")

EVENT_STREAM = "text/event-stream"
LAST_EVENT_ID_HEADER = "Last-Event-ID"


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
    accept: str | None = None
    """``text/event-stream`` for a streamed call; otherwise the client's default (JSON)."""
    resumes: bool = False
    """A stream that resumes itself when its connection drops (``clients/BEHAVIOUR.md``, Resuming a stream):
    ``streamRun`` / ``streamRunActions`` sent with ``onDisconnect: continue``, and every ``streamRunEvents``."""
    run_id: str | None = None
    """The run a stream belongs to when the call names it (``streamRunActions``, ``streamRunEvents``)."""
    last_event_id: int | None = None
    """``streamRunEvents``: the id of the last event the caller has (``Last-Event-ID``); None from the first."""

    def headers(self, host: str | None) -> dict[str, str]:
        """This attempt's own headers; ``host`` is ``self.host``, or the owner a 421 named."""
        headers = {"Accept": self.accept} if self.accept else {}
        if self.idempotency_key:
            headers["Idempotency-Key"] = self.idempotency_key
        if host is not None:
            headers[ROUTING_HEADER] = host
        if self.last_event_id is not None:
            headers[LAST_EVENT_ID_HEADER] = str(self.last_event_id)
        return headers

    def request(self, http: httpx.Client | httpx.AsyncClient, host: str | None) -> httpx.Request:
        return http.build_request(self.method, self.path, json=self.body, headers=self.headers(host))

    def result(self, response: httpx.Response) -> T:
        """The value of the answer that ended the call (a ``missing_means_done`` 404 has none)."""
        return self.parse(response.json() if response.is_success and response.content else None)


def new_key() -> str:
    """A fresh Idempotency-Key for one logical call."""
    return str(uuid.uuid4())


def _model(value: Any, model: Any) -> Any:
    """A generated model from itself or from a plain dict."""
    return model.from_dict(value) if isinstance(value, Mapping) else value


def session_handle(session: Handle) -> SessionHandle:
    """``{id, revision}`` from a handle, a ``SessionInfo`` or a dict with those keys."""
    from ._models import SessionHandle, SessionInfo

    if isinstance(session, SessionHandle):
        return session
    if isinstance(session, SessionInfo):
        return SessionHandle(id=session.id, revision=session.revision)
    if session is None:
        raise ValueError("session is None: that result came from a stateless run, which has no session")
    return SessionHandle(id=str(session["id"]), revision=int(session["revision"]))


def session_id_of(session: str | Handle) -> str:
    """The session id of an id, a handle, a ``SessionInfo`` or a dict with an ``id`` (its revision is not read)."""
    from ._models import SessionHandle, SessionInfo

    if isinstance(session, str):
        return session
    if isinstance(session, SessionHandle | SessionInfo):
        return session.id
    if session is None:
        raise ValueError("session is None: that result came from a stateless run, which has no session")
    return str(session["id"])


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


def _messages(history: Sequence[Message | Mapping[str, Any]]) -> list[dict[str, Any]]:
    from ._models import Message

    return [_model(m, Message).to_dict() for m in history]


def _tools(tools: Sequence[Any]) -> list[dict[str, Any]]:
    from ._models import ToolDefinition

    return [_model(t, ToolDefinition).to_dict() for t in tools]


def _as_is(value: Any) -> Any:
    return value


def _attachment(value: Any) -> dict[str, Any]:
    from ._models import Attachment

    return value.to_dict() if isinstance(value, Attachment) else dict(value)


_SENT_AS: dict[str, Callable[[Any], Any]] = {
    "history": _messages,
    "attachments": lambda items: [_attachment(a) for a in items],
    "retrieval": dict,
    "tools": _tools,
    "on_disconnect": str,
}
"""How a run argument's value is sent, where it is not sent as it is (models and shortcuts become wire dicts)."""
_NOT_IN_THE_BODY = frozenset({"idempotency_key"})  # a header


def _wire_name(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def _run_fields() -> dict[str, tuple[str, Callable[[Any], Any]]]:
    """Each optional argument of ``RunArguments`` (declared there only): its wire name, the camelCase of its name,
    and how its value is sent. ``tests/test_arguments.py`` checks every wire name is a ``RunRequest`` property."""
    optional = sorted(RunArguments.__optional_keys__ - _NOT_IN_THE_BODY)
    return {name: (_wire_name(name), _SENT_AS.get(name, _as_is)) for name in optional}


_RUN_FIELDS = _run_fields()
"""Each optional run argument: its wire name and how its value is sent (an argument left None is not sent)."""


def run_body(session: Handle | None, arguments: RunArguments) -> dict[str, Any]:
    """The ``RunRequest`` wire dict of ``arguments``.

    Built directly as the wire dict: a round trip through the generated RunRequest
    (from_dict, then to_dict) checks nothing more and costs about as much as the
    rest of the client's work on a turn.
    """
    check_arguments(arguments)
    body: dict[str, Any] = {"provider": arguments["provider"], "model": arguments["model"], "input": arguments["input"]}
    if session is not None:
        body["session"] = session_handle(session).to_dict()
    for name, (wire, convert) in _RUN_FIELDS.items():
        value = arguments.get(name)
        if value is not None:
            body[wire] = convert(value)
    return body


def actions_body(
    function_results: Results | None, approvals: Approvals | None, on_disconnect: Disconnect | None = None
) -> dict[str, Any]:
    """Answers as lists of dicts, or as ``{call_id: output}`` / ``{call_id: approve}`` shortcuts."""
    from ._models import SubmitRunActionsRequest

    body: dict[str, Any] = {}
    if function_results is not None:
        body["functionResults"] = _answers(function_results, "output")
    if approvals is not None:
        body["approvals"] = _answers(approvals, "approve")
    if on_disconnect is not None:
        body["onDisconnect"] = str(on_disconnect)
    return SubmitRunActionsRequest.from_dict(body).to_dict()


def _continues(body: Mapping[str, Any]) -> bool:
    return body.get("onDisconnect") == "continue"


def _answers(answers: Results | Approvals, field: str) -> list[dict[str, Any]]:
    if isinstance(answers, Mapping):
        return [{"callId": k, field: v} for k, v in answers.items()]
    return [dict(a) for a in answers]


class plans:
    """Request plans for every operation; the clients only execute them."""

    @staticmethod
    def discovery() -> Call[Discovery]:
        from ._models import Discovery

        return _call("getDiscovery", Discovery.from_dict)

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
        from ._models import CreateSessionRequest

        fields: dict[str, Any] = {"provider": provider, "model": model, "mode": str(mode), "instructions": instructions}
        if history is not None:
            fields["history"] = _messages(history)
        body = CreateSessionRequest.from_dict({k: v for k, v in fields.items() if v is not None}).to_dict()
        return _call("createSession", _session_of, body=body, key=idempotency_key)

    @staticmethod
    def read_session(session_id: str) -> Call[ReadSessionResponse]:
        from ._models import ReadSessionResponse

        return _call("readSession", ReadSessionResponse.from_dict, sessionId=session_id)

    @staticmethod
    def delete_session(session_id: str) -> Call[None]:
        return _call("deleteSession", lambda _: None, sessionId=session_id, missing_means_done=True)

    @staticmethod
    def truncate_session(session: Handle, keep_turns: int) -> Call[SessionInfo]:
        """``truncateSession`` takes no Idempotency-Key: a repeat meets a revision conflict, never a second cut."""
        from ._models import TruncateSessionRequest

        handle = session_handle(session)
        body = TruncateSessionRequest(revision=handle.revision, keep_turns=keep_turns).to_dict()
        return _call("truncateSession", _session_of, body=body, sessionId=handle.id)

    @staticmethod
    def fork_session(session: str | Handle, revision: int | None, idempotency_key: str | None) -> Call[SessionInfo]:
        """``forkSession``: keyed as ``createSession`` is (one key per logical call, on every attempt), and
        routed by the source's id as ``truncateSession`` is; no ``revision`` forks at the current one (``{}``)."""
        from ._models import ForkSessionRequest

        session_id = session_id_of(session)
        body = ForkSessionRequest.from_dict({} if revision is None else {"revision": revision}).to_dict()
        return _call("forkSession", _session_of, body=body, key=idempotency_key, sessionId=session_id)

    @staticmethod
    def run(session: Handle | None, arguments: RunArguments, *, stream: bool = False) -> Call[RunResult]:
        """``run`` (``streamRun`` with ``stream``): a session run reads a ``SessionRunResult`` and names its host."""
        body = run_body(session, arguments)
        parse = parse_run_result if session is None else parse_session_run_result
        operation, key = "streamRun" if stream else "run", arguments.get("idempotency_key")
        return _call(operation, parse, body=body, key=key, accept=_accept(stream), resumes=stream and _continues(body))

    @staticmethod
    def submit_actions(
        run_id: str,
        function_results: Results | None,
        approvals: Approvals | None,
        idempotency_key: str | None,
        *,
        on_disconnect: Disconnect | None = None,
        stream: bool = False,
    ) -> Call[RunResult]:
        """``submitRunActions`` (``streamRunActions`` with ``stream``)."""
        body = actions_body(function_results, approvals, on_disconnect)
        return _call(
            "streamRunActions" if stream else "submitRunActions",
            parse_run_result,
            body=body,
            key=idempotency_key,
            runId=run_id,
            accept=_accept(stream),
            resumes=stream and _continues(body),
            run_id=run_id,
        )

    @staticmethod
    def get_run(run_id: str) -> Call[RunState]:
        from ._models import RunState

        return _call("getRun", RunState.from_dict, runId=run_id)

    @staticmethod
    def run_events(run_id: str, last_event_id: int | None) -> Call[RunResult]:
        """``streamRunEvents``: a reader of the run, so always resumable (reading never stops a run)."""
        if last_event_id is not None and (isinstance(last_event_id, bool) or last_event_id < 1):
            raise ValueError("last_event_id must be a positive event id (or None: from the run's first event)")
        return _call(
            "streamRunEvents",
            parse_run_result,
            runId=run_id,
            accept=EVENT_STREAM,
            resumes=True,
            run_id=run_id,
            last_event_id=last_event_id,
        )

    @staticmethod
    def cancel(run_id: str) -> Call[CancelRunResponse]:
        from ._models import CancelRunResponse

        return _call("cancelRun", CancelRunResponse.from_dict, runId=run_id)


def _session_of(data: Any) -> SessionInfo:
    from ._models import CreateSessionResponse

    return CreateSessionResponse.from_dict(data).session


def _accept(stream: bool) -> str | None:
    return EVENT_STREAM if stream else None


def _call(
    operation_id: str,
    parse: Callable[[Any], T],
    *,
    body: Mapping[str, Any] | None = None,
    key: str | None = None,
    accept: str | None = None,
    resumes: bool = False,
    run_id: str | None = None,
    last_event_id: int | None = None,
    missing_means_done: bool = False,
    **path_ids: str,
) -> Call[T]:
    """One call of ``operation_id`` as its row of ``_operations`` (generated from openapi.yaml) says: its method
    and path (``path_ids`` fill the template), an Idempotency-Key (``key``, else a fresh one) when it takes one, and
    the host that owns the id it routes by."""
    operation = OPERATIONS[operation_id]
    path = operation.path.format(**{name: _segment(value, _snake(name)) for name, value in path_ids.items()})
    return Call(
        operation.method,
        path,
        parse,
        body=body,
        idempotency_key=(key or new_key()) if operation.idempotency_key else None,
        missing_means_done=missing_means_done,
        host=_routing_host(operation, body, path_ids),
        accept=accept,
        resumes=resumes,
        run_id=run_id,
        last_event_id=last_event_id,
    )


def _routing_host(operation: Operation, body: Mapping[str, Any] | None, path_ids: Mapping[str, str]) -> str | None:
    if operation.routing_param is not None:
        return host_of(path_ids[operation.routing_param])
    value: Any = body
    for member in operation.routing_pointer or ():
        value = value.get(member) if isinstance(value, Mapping) else None
    return host_of(value) if operation.routing_pointer and isinstance(value, str) else None


def _snake(name: str) -> str:
    """``sessionId`` -> ``session_id``: the argument's name in this SDK, for an error message."""
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


def _segment(value: str, name: str) -> str:
    if not value:
        raise ValueError(f"{name} must not be empty")
    return quote(value, safe="")
