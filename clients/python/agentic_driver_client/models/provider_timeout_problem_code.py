# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class ProviderTimeoutProblemCode(StrEnum):
    PROVIDER_TIMEOUT = "PROVIDER_TIMEOUT"

    def __str__(self) -> str:
        return str(self.value)
