# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class InterruptReason(StrEnum):
    CANCELLED = "cancelled"
    DISCONNECTED = "disconnected"
    FAILED = "failed"
    IDLE_TIMEOUT = "idle_timeout"
    LIMIT_EXCEEDED = "limit_exceeded"
    SHUTDOWN = "shutdown"

    def __str__(self) -> str:
        return str(self.value)
