"""Stream events: the generated event models, and ``UnknownEvent`` for types newer than this client."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from httpx_sse import ServerSentEvent

    from agentic_driver_client.models import (
        OutputDeltaEvent,
        RunCompletedEvent,
        RunFailedEvent,
        RunRequiresActionEvent,
        RunStartedEvent,
    )

__all__ = ["Event", "UnknownEvent", "parse_event", "parse_event_data"]


@dataclass(frozen=True)
class UnknownEvent:
    """An event type newer than this client; kept, not dropped, so nothing is lost.

    Skip it, or log it: a newer host may add event types without a new major version.
    """

    type: str
    """The event's ``type`` (its SSE ``event`` name when the data has none)."""
    data: dict[str, Any]
    """The event's JSON data, as sent."""


Event: TypeAlias = (
    "RunStartedEvent | OutputDeltaEvent | RunRequiresActionEvent | RunCompletedEvent | RunFailedEvent | UnknownEvent"
)
"""One event of a streamed run: a generated event model (``agentic_driver_client.models``), or ``UnknownEvent``.

A string at run time (the models load on first use); type checkers see the union."""


@cache
def event_types() -> dict[str, Any]:
    from . import _models as m

    return {
        "run.started": m.RunStartedEvent,
        "output.delta": m.OutputDeltaEvent,
        "run.requires_action": m.RunRequiresActionEvent,
        "run.completed": m.RunCompletedEvent,
        "run.failed": m.RunFailedEvent,
    }


def parse_event(sse: ServerSentEvent) -> Event:
    """A typed event from one SSE message; an unknown ``type`` becomes ``UnknownEvent``."""
    return parse_event_data(sse.event, json.loads(sse.data))


def parse_event_data(name: str, data: Any) -> Event:
    """A typed event from an SSE event name and its parsed JSON data."""
    if not isinstance(data, dict):
        return UnknownEvent(type=name, data={"data": data})
    kind = data.get("type", name)
    model = event_types().get(kind)
    if model is None:
        return UnknownEvent(type=str(kind), data=data)
    event: Event = model.from_dict(data)
    return event
