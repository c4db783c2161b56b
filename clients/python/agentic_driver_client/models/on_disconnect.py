# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class OnDisconnect(StrEnum):
    CANCEL = "cancel"
    CONTINUE = "continue"

    @classmethod
    def _missing_(cls, value: object) -> "OnDisconnect | None":
        # A value added by a newer host parses as an unnamed member instead of
        # failing the whole response (forward compatibility).
        if not isinstance(value, str):
            return None
        member = str.__new__(cls, value)
        member._name_ = value
        member._value_ = value
        return member

    def __str__(self) -> str:
        return str(self.value)
