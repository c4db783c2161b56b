# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class RunUnavailableProblemCode(StrEnum):
    HOST_BUSY = "HOST_BUSY"
    SHUTTING_DOWN = "SHUTTING_DOWN"

    def __str__(self) -> str:
        return str(self.value)
