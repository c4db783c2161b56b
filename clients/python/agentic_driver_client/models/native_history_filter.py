# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from enum import StrEnum


class NativeHistoryFilter(StrEnum):
    COMPACT_TOOL_RESULTS = "compact_tool_results"
    FULL = "full"
    NO_REASONING = "no_reasoning"
    NO_TOOL_RESULTS = "no_tool_results"

    def __str__(self) -> str:
        return str(self.value)
