"""What every block of host JSON shares: closed, frozen, strict models, and the error that lists problems."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

DEFAULT_MAX_ENTRIES = 1_000
DEFAULT_MAX_MESSAGES = 100
DEFAULT_MAX_RECORD_BYTES = 1_000_000
DEFAULT_MAX_NATIVE_MESSAGES = 2_048
ALL_GRANTS = ("create", "read", "continue", "delete")

SessionGrantName = Literal["create", "read", "continue", "delete"]


class ConfigError(ValueError):
    """A host configuration that cannot be used; ``problems`` lists each one with its path."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("invalid host configuration:\n  " + "\n  ".join(problems))
        self.problems = problems


class _Closed(BaseModel):
    # Attribute docstrings describe each field; generator/docs_reference.py renders docs/host-config.md from
    # them. They are not field descriptions at run time: pydantic would parse this module's source for them.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
