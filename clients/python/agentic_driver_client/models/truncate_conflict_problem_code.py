# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class TruncateConflictProblemCode(StrEnum):
    SESSION_BUSY = "SESSION_BUSY"
    SESSION_REVISION_CONFLICT = "SESSION_REVISION_CONFLICT"

    def __str__(self) -> str:
        return str(self.value)
