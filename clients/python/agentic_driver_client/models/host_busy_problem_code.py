# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class HostBusyProblemCode(StrEnum):
    HOST_BUSY = "HOST_BUSY"

    def __str__(self) -> str:
        return str(self.value)
