# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class SessionAccountRequiredProblemCode(StrEnum):
    SESSION_ACCOUNT_REQUIRED = "SESSION_ACCOUNT_REQUIRED"

    def __str__(self) -> str:
        return str(self.value)
