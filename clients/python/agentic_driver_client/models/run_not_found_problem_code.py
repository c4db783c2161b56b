# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class RunNotFoundProblemCode(StrEnum):
    RUN_NOT_FOUND = "RUN_NOT_FOUND"

    def __str__(self) -> str:
        return str(self.value)
