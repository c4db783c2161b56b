# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class StreamRunConflictProblemCode(StrEnum):
    IDEMPOTENCY_KEY_IN_USE = "IDEMPOTENCY_KEY_IN_USE"
    SESSION_BUSY = "SESSION_BUSY"
    SESSION_INTERRUPTED = "SESSION_INTERRUPTED"
    SESSION_REVISION_CONFLICT = "SESSION_REVISION_CONFLICT"

    def __str__(self) -> str:
        return str(self.value)
