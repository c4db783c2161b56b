# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class RunStatus(StrEnum):
    COMPLETED = "completed"
    REQUIRES_ACTION = "requires_action"

    def __str__(self) -> str:
        return str(self.value)
