# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class PermissionDeniedProblemCode(StrEnum):
    PERMISSION_DENIED = "PERMISSION_DENIED"

    def __str__(self) -> str:
        return str(self.value)
