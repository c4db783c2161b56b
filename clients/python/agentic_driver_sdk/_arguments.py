"""What the calls take, defined once: the arguments of a run and the answers to a required action.

``client.run``, ``runs.create`` and ``runs.stream`` (sync and async) all take
``**arguments: Unpack[RunArguments]`` beside ``session=``: a type checker sees each
field as a keyword argument, and ``_plans`` turns the same fields into the request.
"""

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypeAlias, TypedDict

if TYPE_CHECKING:
    from agentic_driver_client.models import (
        Attachment,
        Message,
        OnDisconnect,
        SessionHandle,
        SessionInfo,
        ToolDefinition,
    )

__all__ = ["Approvals", "Disconnect", "Handle", "Results", "RunArguments", "SessionRunArguments", "check_arguments"]

if TYPE_CHECKING:
    Handle: TypeAlias = SessionHandle | SessionInfo | Mapping[str, Any]
    """What ``session=`` accepts: a ``SessionHandle``, a ``SessionInfo`` or ``{"id": ..., "revision": ...}``.

    A ``RunResult`` whose kind is not known statically (``runs.submit_actions``) has a
    ``session`` that may be ``None``; a run sent with ``session=None`` is stateless, so
    check ``result.session is not None`` (or ``isinstance(result, SessionRunResult)``) first.
    The session calls (``read``, ``fork``, ``truncate``) raise ``ValueError`` for ``None``."""

Results: TypeAlias = Sequence[Mapping[str, Any]] | Mapping[str, str]
"""Function results: ``{call_id: output}`` or ``[{"callId": ..., "output": ...}]``."""
Approvals: TypeAlias = Sequence[Mapping[str, Any]] | Mapping[str, bool]
"""Host-tool approvals: ``{call_id: True}`` or ``[{"callId": ..., "approve": False, "reason": ...}]``."""
Disconnect: TypeAlias = 'Literal["cancel", "continue"] | OnDisconnect'
"""What a run does when its client's connection drops: ``"cancel"`` (the host's default) or ``"continue"``."""


class SessionRunArguments(TypedDict):
    """The arguments of a run that continues a session (beside ``session=``)."""

    provider: str
    """The provider instance (``GET /v1/discovery`` lists yours); a session run names the session's."""
    model: str
    """The model; a session run names the session's."""
    input: str
    """The user's text for this turn."""
    tools: NotRequired["Sequence[ToolDefinition | Mapping[str, Any]] | None"]
    """Functions the application runs itself; the result is then ``requires_action`` when the model calls one."""
    idle_timeout_ms: NotRequired[int | None]
    """The longest the provider may make no progress (``PROVIDER_TIMEOUT`` beyond)."""
    action_timeout_ms: NotRequired[int | None]
    """How long a required action may stay unanswered before the run ends as cancelled (``action_timeout``)."""
    on_disconnect: NotRequired["Disconnect | None"]
    """``"continue"``: the run goes on when the connection drops, and a stream resumes itself (``Last-Event-ID``);
    by default (``"cancel"``) a drop stops the run (a session turn whose model work had started is interrupted)."""
    idempotency_key: NotRequired[str | None]
    """Your key for this logical call; by default a fresh UUID4, sent on every attempt."""


class RunArguments(SessionRunArguments):
    """The arguments of a stateless run: a session run's, and the context a session would own."""

    instructions: NotRequired[str | None]
    """The system instructions of this one turn."""
    history: NotRequired["Sequence[Message | Mapping[str, Any]] | None"]
    """Earlier messages, as generated ``Message`` models or ``{"role": ..., "content": ...}`` dicts."""
    attachments: NotRequired["Sequence[Attachment | Mapping[str, Any]] | None"]
    """Files or images for this turn: ``attachment(name, media_type, content)`` makes one from bytes (a generated
    ``Attachment``), or ``{"name": ..., "mediaType": ..., "data": <base64>}`` dicts."""
    retrieval: NotRequired[Mapping[str, Any] | None]
    """Retrieval settings for this turn (wire form, as in ``openapi.yaml``)."""


def check_arguments(arguments: Mapping[str, Any]) -> None:
    """The ``TypeError`` Python raises for explicit keyword parameters, for the ones a ``TypedDict`` declares."""
    missing = sorted(RunArguments.__required_keys__ - arguments.keys())
    if missing:
        raise TypeError(f"missing required keyword arguments: {', '.join(missing)}")
    unknown = sorted(arguments.keys() - RunArguments.__required_keys__ - RunArguments.__optional_keys__)
    if unknown:
        raise TypeError(f"unexpected keyword arguments: {', '.join(unknown)}")
