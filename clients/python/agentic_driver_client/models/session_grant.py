# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class SessionGrant(StrEnum):
    CONTINUE = "continue"
    CREATE = "create"
    DELETE = "delete"
    READ = "read"

    def __str__(self) -> str:
        return str(self.value)
