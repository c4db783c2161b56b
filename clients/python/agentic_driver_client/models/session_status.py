# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class SessionStatus(StrEnum):
    INTERRUPTED = "interrupted"
    READY = "ready"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
