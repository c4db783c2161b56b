"""Session records (what is stored) and the bounded store (revisions, retention, bounds)."""

from .records import (
    Accounting,
    InterruptedTurnRecord,
    Mode,
    Owner,
    RunFigures,
    SessionRecord,
    Status,
    TurnLog,
    TurnRecord,
)
from .store import SessionStore, TurnGrowth

__all__ = [
    "Accounting",
    "InterruptedTurnRecord",
    "Mode",
    "Owner",
    "RunFigures",
    "SessionRecord",
    "SessionStore",
    "Status",
    "TurnGrowth",
    "TurnLog",
    "TurnRecord",
]
