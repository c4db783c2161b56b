"""The documented recovery paths: reconcile a lost answer, fork a conversation explicitly."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from ._plans import session_handle

if TYPE_CHECKING:
    from agentic_driver_client.models import InterruptedTurn, Message, ReadSessionResponse, SessionInfo, Turn

    from ._arguments import Handle

__all__ = ["UNCHANGED", "Keep", "Reconciliation", "keep_messages", "reconciliation_of"]


@dataclass(frozen=True)
class Reconciliation:
    """Whether the turn sent at ``sent_revision`` landed, read after its answer was lost."""

    landed: bool
    """The turn completed: the session moved past the revision it was sent with."""
    session: SessionInfo
    """The session now; pass ``session`` (or its handle) to the next run."""
    turn: Turn | None = None
    """The turn that landed, when it did."""
    reply: str | None = None
    """Its final assistant text, when it landed."""
    in_progress: bool = False
    """A turn is still active; read again later."""
    interrupted: InterruptedTurn | None = None
    """The session was interrupted (maybe by the lost turn itself); reconcile before a new session."""


def reconciliation_of(read: ReadSessionResponse, sent: Handle) -> Reconciliation:
    """What a session read says about the turn sent with handle ``sent``."""
    from ._models import Unset

    sent_revision = session_handle(sent).revision
    session = read.session
    interrupted = None if isinstance(read.interrupted_turn, Unset) else read.interrupted_turn
    turn = next((t for t in read.turns if t.revision == sent_revision + 1), None)
    if session.revision > sent_revision and turn is not None:
        added = read.history[turn.start : turn.end]
        reply = next((m.content for m in reversed(added) if str(m.role) == "assistant"), None)
        return Reconciliation(landed=True, session=session, turn=turn, reply=reply, interrupted=interrupted)
    return Reconciliation(
        landed=session.revision > sent_revision,
        session=session,
        in_progress=str(session.status) == "running",
        interrupted=interrupted,
    )


Keep: TypeAlias = int | slice | Callable[[list["Message"]], Sequence["Message"]] | None
"""What ``fork(keep=...)`` takes: None (all), the last N messages, a slice, or a function of the history."""


def keep_messages(history: list[Message], keep: Keep) -> list[Message]:
    """The part of a visible history to carry into a fork: all, the last N, a slice, or your choice."""
    if keep is None:
        return list(history)
    if isinstance(keep, int):
        if keep < 0:
            raise ValueError("keep must be 0 or more messages")
        return list(history[len(history) - keep :]) if keep else []
    if isinstance(keep, slice):
        return list(history[keep])
    return list(keep(list(history)))


class _Unchanged:
    def __repr__(self) -> str:
        return "UNCHANGED"


UNCHANGED = _Unchanged()
"""``fork(instructions=...)`` default: keep the original session's instructions."""


def _fork_arguments(
    read: ReadSessionResponse,
    provider: str | None,
    model: str | None,
    mode: str | None,
    instructions: str | _Unchanged | None,
    keep: Keep,
) -> dict[str, Any]:
    original = read.session
    kept = read.instructions if isinstance(instructions, _Unchanged) else instructions
    return {
        "provider": provider or original.provider,
        "model": model or original.model,
        "mode": mode or str(original.mode),
        "instructions": kept if isinstance(kept, str) else None,
        "history": keep_messages(read.history, keep),
    }
