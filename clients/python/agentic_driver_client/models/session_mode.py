# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class SessionMode(StrEnum):
    HISTORY = "history"
    NATIVE = "native"

    def __str__(self) -> str:
        return str(self.value)
