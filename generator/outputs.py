"""Write the files a table generator renders, or check the committed ones (``--check``), naming each stale file."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

Facts = TypeVar("Facts")

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


def run_table_generator(
    description: str | None,
    load: Callable[[], Facts],
    outputs: Mapping[str, Callable[[Facts], str]],
    *,
    refusal: type[Exception],
    name: str,
    source: str,
) -> int:
    """A table generator's command line: load the facts, render every output from them, then write the files
    or (``--check``) name each committed one that differs. A ``refusal`` while loading or rendering is the
    spec's fault: printed as ``name: openapi.yaml: ...`` with exit status 1, nothing written."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="fail if a committed copy differs")
    options = parser.parse_args()
    try:
        facts = load()
        rendered = {path: render(facts) for path, render in outputs.items()}
    except refusal as problem:
        print(f"{name}: openapi.yaml: {problem}", file=sys.stderr)
        return 1
    return write_or_check(rendered, check=options.check, source=source)
