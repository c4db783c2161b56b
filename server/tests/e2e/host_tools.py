"""Host tools for the end-to-end hosts, imported by the host process as ``host_tools:<function>``.

The e2e conftest starts those hosts with this directory on PYTHONPATH and
``AGENTIC_DRIVER_E2E_TOOL_LOG`` naming a file; every call appends one JSON
line ``{"tool": ..., "arguments": ...}`` to it before answering, so a test can
prove that a tool ran (or that a denied one never did) from outside the host.
The test process reads the file with ``tool_calls``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

TOOL_LOG_ENV = "AGENTIC_DRIVER_E2E_TOOL_LOG"

ADD_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
    "required": ["a", "b"],
}
WRITE_NOTE_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {"text": {"type": "string"}},
    "required": ["text"],
}


def _record(tool: str, arguments: dict[str, Any]) -> None:
    line = json.dumps({"tool": tool, "arguments": arguments}, sort_keys=True) + "\n"
    with Path(os.environ[TOOL_LOG_ENV]).open("a", encoding="utf-8") as log:
        log.write(line)


async def add(a: float, b: float) -> float:
    """Approval ``never``: runs as soon as the model calls it."""
    _record("add", {"a": a, "b": b})
    return a + b


async def write_note(text: str) -> str:
    """Approval ``required``: an external effect a person must allow first."""
    _record("write_note", {"text": text})
    return f"noted: {text}"


def tool_calls(log_path: Path) -> list[dict[str, Any]]:
    """Every call recorded so far, oldest first (read by the test process)."""
    if not log_path.exists():
        return []
    return [json.loads(line) for line in log_path.read_text(encoding="utf-8").splitlines() if line]
