"""What an adapter yields is checked before the turn uses it: a malformed event fails the provider call.

An adapter that lets an unparsed or half-parsed upstream payload through (a
dict instead of an event, a delta without text, negative usage) must not
become a stored turn or an internal error: the call fails like any upstream
failure (``PROVIDER_ERROR``), and a session turn is interrupted with its last
good history intact.
"""

from __future__ import annotations

from dataclasses import fields

from ..providers.base import (
    NativeItems,
    ProviderFailure,
    RetryReport,
    TextDelta,
    ToolCall,
    TurnEvent,
    Usage,
    UsageReport,
)

__all__ = ["checked", "malformed"]


def malformed(event: object) -> str | None:
    """Why ``event`` is not a well-formed turn event, or None when it is one."""
    if isinstance(event, TextDelta):
        return None if isinstance(event.text, str) else "a text delta without text"
    if isinstance(event, ToolCall):
        ok = isinstance(event.call_id, str) and isinstance(event.name, str) and isinstance(event.arguments, dict)
        return None if ok and event.call_id and event.name else "a tool call without id, name or object arguments"
    if isinstance(event, NativeItems):
        ok = isinstance(event.items, tuple) and all(isinstance(item, str) for item in event.items)
        return None if ok else "native items that are not text"
    if isinstance(event, (UsageReport, RetryReport)):
        usage = event.usage
        counts = [getattr(usage, f.name) for f in fields(Usage)] if isinstance(usage, Usage) else [None]
        ok = all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts)
        return None if ok else "usage that is not a set of non-negative counts"
    return f"an event of unknown type {type(event).__name__}"


def checked(event: object) -> TurnEvent:
    """``event`` itself, or a failed provider call when it is malformed.

    Called by the turn loop on each event as it arrives (rather than wrapping the
    adapter's stream in another async generator, one more hop per event).
    """
    problem = malformed(event)
    if problem is not None:
        raise ProviderFailure(f"the provider sent a malformed event: {problem}")
    return event  # type: ignore[return-value]  # malformed() is None only for the TurnEvent types
