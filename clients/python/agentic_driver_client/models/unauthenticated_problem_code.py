# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class UnauthenticatedProblemCode(StrEnum):
    UNAUTHENTICATED = "UNAUTHENTICATED"

    def __str__(self) -> str:
        return str(self.value)
