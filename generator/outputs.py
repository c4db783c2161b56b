"""Write the files a table generator renders, or check the committed ones (``--check``), naming each stale file."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def write_or_check(rendered: Mapping[str, str], *, check: bool, source: str) -> int:
    """``rendered``: repository path -> text. Returns the exit status (1 when ``check`` finds a stale file)."""
    stale = []
    for path, text in rendered.items():
        target = ROOT / path
        if check:
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                stale.append(path)
        else:
            target.write_text(text, encoding="utf-8")
            print("Wrote", path)
    for path in stale:
        print(f"{path}: differs from {source}; run make generate", file=sys.stderr)
    return 1 if stale else 0
