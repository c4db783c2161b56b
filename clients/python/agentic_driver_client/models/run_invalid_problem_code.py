# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class RunInvalidProblemCode(StrEnum):
    IDEMPOTENCY_KEY_REUSED = "IDEMPOTENCY_KEY_REUSED"
    SESSION_CONTEXT_UNSUPPORTED = "SESSION_CONTEXT_UNSUPPORTED"
    SESSION_LIMIT_EXCEEDED = "SESSION_LIMIT_EXCEEDED"
    SESSION_OVERRIDE_REJECTED = "SESSION_OVERRIDE_REJECTED"
    SESSION_PREFIX_CHANGED = "SESSION_PREFIX_CHANGED"
    VALIDATION_ERROR = "VALIDATION_ERROR"

    def __str__(self) -> str:
        return str(self.value)
