"""Write the files a table generator renders, or check the committed ones (``--check``), naming each stale file."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def gofmt(source: str, what: str, error: type[Exception]) -> str:
    """``source`` as gofmt writes it (the Go toolchain is needed by make generate anyway); ``error(message)``,
    naming ``what``, when gofmt refuses it."""
    done = subprocess.run(["gofmt"], input=source, capture_output=True, text=True, check=False, timeout=60)
    if done.returncode != 0:
        raise error(f"gofmt refused {what}: {done.stderr}")
    return done.stdout


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
