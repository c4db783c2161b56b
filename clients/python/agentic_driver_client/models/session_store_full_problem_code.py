# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class SessionStoreFullProblemCode(StrEnum):
    SESSION_STORE_FULL = "SESSION_STORE_FULL"

    def __str__(self) -> str:
        return str(self.value)
