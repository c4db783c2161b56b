# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class StreamActionsConflictProblemCode(StrEnum):
    IDEMPOTENCY_KEY_IN_USE = "IDEMPOTENCY_KEY_IN_USE"
    RUN_NOT_WAITING = "RUN_NOT_WAITING"

    def __str__(self) -> str:
        return str(self.value)
