"""Host tools: functions the host itself runs when the model calls them.

A host tool is a Python async callable with a JSON Schema for its arguments
and an approval policy. ``approval="required"`` ends the run in
``requires_action`` (type ``approvals``) until a person approves or denies each
call; approved calls run, denied ones tell the model so. Register tools on the
embedded ``Driver`` or name them in host JSON by import path (``module:function``).
"""

from __future__ import annotations

import importlib
import inspect
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from .providers.base import ToolSpec

__all__ = ["HostTool", "ToolHandler", "import_handler"]

ToolHandler = Callable[..., Awaitable[Any]]
"""Called with the model's arguments as keyword arguments; returns anything JSON can encode."""


@dataclass(frozen=True, slots=True)
class HostTool:
    name: str
    handler: ToolHandler = field(repr=False)
    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object"})
    description: str = ""
    approval: Literal["required", "never"] = "required"

    @property
    def spec(self) -> ToolSpec:
        return ToolSpec(self.name, self.description, self.parameters)

    async def call(self, arguments: dict[str, Any]) -> str:
        """The tool's result as the text the model receives; a failure is reported, not raised."""
        try:
            result = await self.handler(**arguments)
        except Exception as error:  # the model sees the failure and may recover
            return f"error: {type(error).__name__}: {error}"
        return result if isinstance(result, str) else json.dumps(result, ensure_ascii=False, default=str)


def import_handler(path: str) -> ToolHandler:
    """``module:function`` -> the async callable; a clear ValueError when it is not one."""
    module_name, _, attribute = path.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"expected 'module:function', got {path!r}")
    try:
        handler = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as error:
        raise ValueError(f"cannot import {path!r}: {error}") from None
    if not inspect.iscoroutinefunction(handler):
        raise ValueError(f"{path!r} is not an async function")
    return handler  # type: ignore[no-any-return]
