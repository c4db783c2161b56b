# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class ActionsNotFoundProblemCode(StrEnum):
    RUN_NOT_FOUND = "RUN_NOT_FOUND"
    SESSION_NOT_FOUND = "SESSION_NOT_FOUND"

    def __str__(self) -> str:
        return str(self.value)
