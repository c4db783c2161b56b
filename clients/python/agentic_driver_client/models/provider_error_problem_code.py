# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class ProviderErrorProblemCode(StrEnum):
    PROVIDER_AUTH_FAILED = "PROVIDER_AUTH_FAILED"
    PROVIDER_ERROR = "PROVIDER_ERROR"
    PROVIDER_REJECTED = "PROVIDER_REJECTED"

    def __str__(self) -> str:
        return str(self.value)
