# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class NativeHistoryFilter(StrEnum):
    COMPACT_TOOL_RESULTS = "compact_tool_results"
    FULL = "full"
    NO_REASONING = "no_reasoning"
    NO_TOOL_RESULTS = "no_tool_results"

    @classmethod
    def _missing_(cls, value: object) -> "NativeHistoryFilter | None":
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
