"""Session records (what is stored) and the bounded store (revisions, retention, bounds)."""

from .records import InterruptedTurnRecord, Mode, Owner, SessionRecord, Status, TurnRecord
from .store import SessionStore, TurnGrowth

__all__ = [
    "InterruptedTurnRecord",
    "Mode",
    "Owner",
    "SessionRecord",
    "SessionStore",
    "Status",
    "TurnGrowth",
    "TurnRecord",
]
