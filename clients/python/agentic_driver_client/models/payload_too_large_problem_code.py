# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class PayloadTooLargeProblemCode(StrEnum):
    PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"

    def __str__(self) -> str:
        return str(self.value)
