# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class ProviderOverloadedProblemCode(StrEnum):
    PROVIDER_OVERLOADED = "PROVIDER_OVERLOADED"

    def __str__(self) -> str:
        return str(self.value)
