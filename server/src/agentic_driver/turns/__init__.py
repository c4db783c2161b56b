"""A turn from admission to outcome: admission (``admission.RunAdmission``, the way in), the lifecycle
(wait for a slot, call the provider, commit or interrupt), run slots, active runs, idempotency keys."""

from .lifecycle import TurnLifecycle
from .runs import ActiveRun, RunRegistry
from .slots import RunSlots

__all__ = ["ActiveRun", "RunRegistry", "RunSlots", "TurnLifecycle"]
