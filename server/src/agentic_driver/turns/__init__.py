"""The turn lifecycle (admit, wait for a slot, call the provider, commit or interrupt), run slots and active runs."""

from .lifecycle import TurnLifecycle
from .runs import ActiveRun, RunRegistry
from .slots import RunSlots

__all__ = ["ActiveRun", "RunRegistry", "RunSlots", "TurnLifecycle"]
