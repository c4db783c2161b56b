# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class SessionsDisabledProblemCode(StrEnum):
    SESSIONS_DISABLED = "SESSIONS_DISABLED"

    def __str__(self) -> str:
        return str(self.value)
