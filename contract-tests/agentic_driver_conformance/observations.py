"""What the pytest side saw: every response a scenario or test validated, appended as JSON lines.

The file (``observations.jsonl`` in the reports directory, or ``CONTRACT_OBSERVATIONS``) is merged by ``metrics.py``
with the schemathesis run's own observations. Lines are written whole under a lock, so threads of one
scenario (background and parallel steps) never interleave.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

from .resources import reports_dir

_LOCK = threading.Lock()


def path() -> Path:
    return Path(os.environ.get("CONTRACT_OBSERVATIONS", reports_dir() / "observations.jsonl"))


def record(kind: str, *, target: Path | None = None, **fields: Any) -> None:
    """Append one observation: ``response`` (operationId, status, code, source) or ``checks``."""
    line = json.dumps({"kind": kind, **fields}, sort_keys=True)
    target = target or path()
    with _LOCK:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")


def read(source: Path | None = None) -> list[dict[str, Any]]:
    target = source or path()
    if not target.exists():
        return []
    return [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines() if line.strip()]
