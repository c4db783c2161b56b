# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class ProviderRateLimitedProblemCode(StrEnum):
    PROVIDER_RATE_LIMITED = "PROVIDER_RATE_LIMITED"

    def __str__(self) -> str:
        return str(self.value)
