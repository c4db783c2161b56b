"""Write every copy of the error catalogue from openapi.yaml's one table, or check that none has drifted.

    python generator/error_table.py          # write the generated files (part of make generate)
    python generator/error_table.py --check  # fail, naming each file, if a committed copy differs

The table is ``components.schemas.ErrorCode.x-error-table``: per code its HTTP ``status``, the problem's
``title``, the ``group`` it is caught with (``NotFound``, ``Conflict``, ``Unprocessable``, ``ProviderFailed``,
``RetryLater``, or none) and the ``fix`` text. From it:

- server/src/agentic_driver/error_table.py: ``ErrorCode``, ``CATALOGUE`` (status, title, group), ``WHAT_TO_DO``;
- clients/go/codes_gen.go: a sentinel per code (``ErrSessionBusy``) and the list ``Sentinel`` reads;
- docs/errors.md's code table and the Python SDK's ``_fix_it.py`` (rendered by ``docs_reference.py``, which
  reads ``load_table`` below).

A code is added by one row here (and its enum entry, and its fields' descriptions on ``Problem``), then
``make generate``; ``server/tests/unit/test_catalogue.py`` says which hand-written class a new code still needs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "openapi.yaml"
GROUPS = ("NotFound", "Conflict", "Unprocessable", "ProviderFailed", "RetryLater")


class TableError(Exception):
    """The table is not usable; the message says which row and why."""


@dataclass(frozen=True, slots=True)
class Row:
    code: str
    status: int
    title: str
    group: str | None
    fix: str

    @property
    def pascal(self) -> str:
        """``SESSION_NOT_FOUND`` -> ``SessionNotFound`` (Go sentinels, Rust variants)."""
        return "".join(part.capitalize() for part in self.code.split("_"))


def load_table(spec_path: Path = SPEC) -> list[Row]:
    """The table's rows in the enum's order, checked: one row per enum code, every field of the right kind."""
    schema = yaml.safe_load(spec_path.read_text(encoding="utf-8"))["components"]["schemas"]["ErrorCode"]
    enum: list[str] = schema["enum"]
    table: dict[str, dict[str, object]] = schema.get("x-error-table") or {}
    if sorted(enum) != sorted(table):
        raise TableError(
            f"ErrorCode's enum and x-error-table differ: only in the enum {sorted(set(enum) - set(table))}, "
            f"only in the table {sorted(set(table) - set(enum))}"
        )
    return [_row(code, table[code]) for code in enum]


def _row(code: str, facts: dict[str, object]) -> Row:
    where = f"x-error-table.{code}"
    unknown = sorted(set(facts) - {"status", "title", "group", "fix"})
    status, title, group, fix = facts.get("status"), facts.get("title"), facts.get("group"), facts.get("fix")
    if unknown:
        raise TableError(f"{where}: unknown keys {unknown}")
    if not isinstance(status, int) or not 400 <= status <= 599:
        raise TableError(f"{where}.status: an HTTP error status, not {status!r}")
    if not isinstance(title, str) or not title or not isinstance(fix, str) or not fix.strip():
        raise TableError(f"{where}: title and fix are required text")
    if group is not None and group not in GROUPS:
        raise TableError(f"{where}.group: one of {', '.join(GROUPS)} (or none), not {group!r}")
    return Row(code, status, title, group if isinstance(group, str) else None, " ".join(fix.split()))


# -- the server's module ------------------------------------------------------------------------------------------

SERVER_HEADER = '''# Generated from openapi.yaml's ErrorCode x-error-table by generator/error_table.py. DO NOT EDIT.
"""The error-code catalogue: each code's status, title, group and fix-it text (``errors`` builds on it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["CATALOGUE", "WHAT_TO_DO", "CodeSpec", "ErrorCode"]


class ErrorCode(StrEnum):
'''

SERVER_SPEC = '''

@dataclass(frozen=True, slots=True)
class CodeSpec:
    status: int
    """The HTTP status every response with this code carries."""
    title: str
    """The problem's short, fixed summary."""
    group: str | None
    """The family an embedded caller catches it with (``errors.NotFound``, ...), or None."""


CATALOGUE: Mapping[ErrorCode, CodeSpec] = {
'''


def render_server(rows: list[Row]) -> str:
    members = "".join(f'    {row.code} = "{row.code}"\n' for row in rows)
    specs = "".join(
        f"    ErrorCode.{row.code}: CodeSpec({row.status}, {json.dumps(row.title)}, {json.dumps(row.group)}),\n"
        for row in rows
    ).replace("null", "None")
    fixes = "".join(f"    ErrorCode.{row.code}: {json.dumps(row.fix, ensure_ascii=False)},\n" for row in rows)
    what_to_do = (
        "\nWHAT_TO_DO: Mapping[ErrorCode, str] = {\n"
        + fixes
        + '}\n"""What a caller should do about each code (Markdown; links relative to ``docs/``)."""\n'
    )
    return SERVER_HEADER + members + SERVER_SPEC + specs + "}\n" + what_to_do


# -- the Go client's sentinels ------------------------------------------------------------------------------------


def render_go(rows: list[Row]) -> str:
    declared = "".join(
        _go_comment(f"Err{row.pascal}: {row.status} {row.code}. {row.fix}")
        + f"\tErr{row.pascal} = &CodeError{{ErrorCode{row.code.replace('_', '')}}}\n"
        for row in rows
    )
    listed = "".join(f"\tErr{row.pascal},\n" for row in rows)
    return _gofmt(
        "// Code generated from openapi.yaml's ErrorCode x-error-table by generator/error_table.py. DO NOT EDIT.\n\n"
        "package agenticdriver\n\n"
        "// The sentinel of every code in the catalogue: errors.Is(err, ErrSessionBusy) holds for every\n"
        "// *ProblemError with that code.\n"
        f"var (\n{declared})\n\n"
        "// allSentinels lists every sentinel, in the catalogue's order (Sentinel reads it).\n"
        f"var allSentinels = []*CodeError{{\n{listed}}}\n"
    )


def _gofmt(source: str) -> str:
    """The file as gofmt writes it (the Go toolchain is needed by make generate anyway)."""
    done = subprocess.run(["gofmt"], input=source, capture_output=True, text=True, check=False, timeout=60)
    if done.returncode != 0:
        raise TableError(f"gofmt refused the Go sentinels: {done.stderr}")
    return done.stdout


def _go_comment(markdown: str) -> str:
    """A doc comment of 100-column lines, the Markdown's code spans as plain words."""
    lines = textwrap.wrap(markdown.replace("`", ""), width=96, break_long_words=False, break_on_hyphens=False)
    return "".join(f"\t// {line}\n" for line in lines)


# -- writing and checking -----------------------------------------------------------------------------------------

OUTPUTS: dict[str, Callable[[list[Row]], str]] = {
    "server/src/agentic_driver/error_table.py": render_server,
    "clients/go/codes_gen.go": render_go,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="fail if a committed copy differs")
    options = parser.parse_args()
    try:
        rows = load_table()
        rendered = {path: render(rows) for path, render in OUTPUTS.items()}
    except TableError as problem:
        print(f"error_table: openapi.yaml: {problem}", file=sys.stderr)
        return 1
    stale = []
    for path, text in rendered.items():
        target = ROOT / path
        if options.check:
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                stale.append(path)
        else:
            target.write_text(text, encoding="utf-8")
            print("Wrote", path)
    for path in stale:
        print(f"{path}: differs from openapi.yaml's x-error-table; run make generate", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
