# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class CreateSessionUnavailableProblemCode(StrEnum):
    SESSION_STORE_FULL = "SESSION_STORE_FULL"
    SHUTTING_DOWN = "SHUTTING_DOWN"

    def __str__(self) -> str:
        return str(self.value)
