# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class ProviderErrorProblemCode(StrEnum):
    PROVIDER_ERROR = "PROVIDER_ERROR"

    def __str__(self) -> str:
        return str(self.value)
