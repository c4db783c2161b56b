# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class RequestTimeoutProblemCode(StrEnum):
    REQUEST_TIMEOUT = "REQUEST_TIMEOUT"

    def __str__(self) -> str:
        return str(self.value)
