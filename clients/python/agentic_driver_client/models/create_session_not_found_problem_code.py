# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class CreateSessionNotFoundProblemCode(StrEnum):
    MODEL_NOT_FOUND = "MODEL_NOT_FOUND"
    PROVIDER_NOT_FOUND = "PROVIDER_NOT_FOUND"
    SESSION_NOT_FOUND = "SESSION_NOT_FOUND"

    def __str__(self) -> str:
        return str(self.value)
