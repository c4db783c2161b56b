"""Write every copy of the error catalogue from openapi.yaml's one table, or check that none has drifted.

    python generator/error_table.py          # write the generated files (part of make generate)
    python generator/error_table.py --check  # fail, naming each file, if a committed copy differs

The table is ``components.schemas.ErrorCode.x-error-table``: per code its HTTP ``status``, the problem's
``title``, the ``group`` it is caught with (``NotFound``, ``Conflict``, ``Unprocessable``, ``ProviderFailed``,
``RetryLater``, or none), the ``fields`` every answer with it carries, the ``optional`` ones some answers carry
(checked against the codes each ``Problem`` member's description names) and the ``fix`` text. From it:

- server/src/agentic_driver/error_table.py: ``ErrorCode``, ``CATALOGUE`` (status, title, group), ``WHAT_TO_DO``;
- server/src/agentic_driver/error_classes.py: the host's class per code under its group (``error_server.py``);
- clients/python/agentic_driver_sdk/_code_errors.py: the SDK's class per code under its status class and group,
  ``CODE_ERRORS``, ``REQUIRED_FIELDS`` and the drawn tree (``error_python.py``);
- clients/go/codes_gen.go: a sentinel per code (``ErrSessionBusy``), the list ``Sentinel`` reads, the group
  sentinels (``ErrProviderFailed``) and which codes are in each;
- clients/typescript/src/errors.gen.ts: a class per code under its group, its guaranteed ``fields`` typed as
  present, and ``PROBLEM_ERRORS``;
- clients/rust/src/error/kind.rs: ``ProblemKind``, its lenient ``Fields``, ``from_code``, ``code`` and each
  code's group (``error_rust.py``);
- docs/errors.md's code table and the Python SDK's ``_fix_it.py`` (rendered by ``docs_reference.py``, which
  reads ``load_table`` below).

A code is added by its enum entry and its row here (and, for a member of its own, the code named in that member's
description on ``Problem``), then ``make generate``: no client or host file is edited by hand.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "generator"))  # also when a test loads this file by its path

from error_python import render_python  # noqa: E402
from error_rust import render_rust_kinds  # noqa: E402
from error_server import TARGET as SERVER_CLASSES  # noqa: E402
from error_server import render_server_classes  # noqa: E402
from outputs import gofmt, run_table_generator  # noqa: E402

SPEC = ROOT / "openapi.yaml"
GROUPS = ("NotFound", "Conflict", "Unprocessable", "ProviderFailed", "RetryLater")


class TableError(Exception):
    """The table is not usable; the message says which row and why."""


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    type: str
    """The ``Problem`` member's kind: ``integer``, ``string`` or ``issues`` (a list of ``ValidationIssue``)."""
    minimum: int | None = None
    """An integer's ``minimum`` in the spec (Rust reads one of at least 0 as ``u64``)."""

    @property
    def snake(self) -> str:
        """``ownerHostId`` -> ``owner_host_id`` (Python and Rust names)."""
        return re.sub(r"(?<!^)(?=[A-Z])", "_", self.name).lower()


@dataclass(frozen=True, slots=True)
class Row:
    code: str
    status: int
    title: str
    group: str | None
    fix: str
    fields: tuple[Field, ...] = ()
    """The ``Problem`` members every answer with this code carries (clients type them as present)."""
    optional: tuple[Field, ...] = ()
    """The ``Problem`` members some answers with this code carry (clients type them as optional)."""

    @property
    def pascal(self) -> str:
        """``SESSION_NOT_FOUND`` -> ``SessionNotFound`` (Go sentinels, Rust variants)."""
        return "".join(part.capitalize() for part in self.code.split("_"))

    @property
    def error_class(self) -> str:
        """The clients' class name: ``SessionNotFoundError``, ``ValidationError`` (never ``...ErrorError``)."""
        return self.pascal if self.pascal.endswith("Error") else self.pascal + "Error"


def load_table(spec_path: Path = SPEC) -> list[Row]:
    """The table's rows in the enum's order, checked: one row per enum code, every field of the right kind."""
    schemas = yaml.safe_load(spec_path.read_text(encoding="utf-8"))["components"]["schemas"]
    schema = schemas["ErrorCode"]
    members: dict[str, dict[str, object]] = schemas["Problem"]["properties"]
    enum: list[str] = schema["enum"]
    table: dict[str, dict[str, object]] = schema.get("x-error-table") or {}
    if sorted(enum) != sorted(table):
        raise TableError(
            f"ErrorCode's enum and x-error-table differ: only in the enum {sorted(set(enum) - set(table))}, "
            f"only in the table {sorted(set(table) - set(enum))}"
        )
    rows = [_row(code, table[code], members) for code in enum]
    _check_members(rows, members)
    return rows


def _row(code: str, facts: dict[str, object], members: dict[str, dict[str, object]]) -> Row:
    where = f"x-error-table.{code}"
    unknown = sorted(set(facts) - {"status", "title", "group", "fields", "optional", "fix"})
    status, title, group, fix = facts.get("status"), facts.get("title"), facts.get("group"), facts.get("fix")
    if unknown:
        raise TableError(f"{where}: unknown keys {unknown}")
    if not isinstance(status, int) or not 400 <= status <= 599:
        raise TableError(f"{where}.status: an HTTP error status, not {status!r}")
    if not isinstance(title, str) or not title or not isinstance(fix, str) or not fix.strip():
        raise TableError(f"{where}: title and fix are required text")
    if group is not None and group not in GROUPS:
        raise TableError(f"{where}.group: one of {', '.join(GROUPS)} (or none), not {group!r}")
    fields, optional = (_fields(f"{where}.{key}", facts.get(key, []), members) for key in ("fields", "optional"))
    if both := sorted({field.name for field in fields} & {field.name for field in optional}):
        raise TableError(f"{where}: {both} both guaranteed and optional")
    return Row(code, status, title, group if isinstance(group, str) else None, " ".join(fix.split()), fields, optional)


def _fields(where: str, value: object, members: dict[str, dict[str, object]]) -> tuple[Field, ...]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise TableError(f"{where}: a list of Problem member names, not {value!r}")
    return tuple(_field(where, name, members) for name in value)


ISSUES = {"type": "array", "items": {"$ref": "#/components/schemas/ValidationIssue"}}
GENERAL_MEMBERS = {"type", "title", "status", "code", "detail", "instance", "requestId", "retryAfterSeconds"}
"""``Problem`` members of every answer (or of none in particular): no row lists them."""
CODES_NAMED = re.compile(r"((?:`[A-Z_]+`(?:, )?)+):")
"""A member description's opening list of the codes that carry it (``SESSION_BUSY`` in backticks, then a colon)."""


def _field(where: str, name: str, members: dict[str, dict[str, object]]) -> Field:
    member = members.get(name)
    if member is None or name in GENERAL_MEMBERS:
        raise TableError(f"{where}: {name!r} is no code-specific member of Problem")
    kind = member.get("type")
    if {key: member.get(key) for key in ISSUES} == ISSUES:
        return Field(name, "issues")
    if kind not in ("integer", "string"):
        raise TableError(f"{where}: {name!r} is neither an integer, a string nor a list of ValidationIssue")
    minimum = member.get("minimum")
    return Field(name, str(kind), minimum if isinstance(minimum, int) else None)


def _check_members(rows: list[Row], members: dict[str, dict[str, object]]) -> None:
    """Each code-specific member's description opens with the codes that carry it: the rows must list it for
    exactly those (``maximum``, the value of a ``limit``, travels with ``limit``)."""
    listed: dict[str, set[str]] = {}
    for row in rows:
        for field in (*row.fields, *row.optional):
            listed.setdefault(field.name, set()).add(row.code)
    for name, member in members.items():
        if name in GENERAL_MEMBERS:
            continue
        if name == "maximum":
            named = listed.get("limit", set())
        elif match := CODES_NAMED.match(str(member.get("description", ""))):
            named = set(re.findall(r"`([A-Z_]+)`", match.group(1)))
        else:
            raise TableError(f"Problem.{name}: its description must open with the codes that carry it")
        if named != listed.get(name, set()):
            raise TableError(
                f"Problem.{name}: its description names {sorted(named)}, the table's fields and optional list it for "
                f"{sorted(listed.get(name, set()))}"
            )


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
    groups = "".join(f'\tErr{group} = &GroupError{{"{group}"}}\n' for group in GROUPS)
    grouped = "".join(
        f"\tErrorCode{row.code.replace('_', '')}: Err{row.group},\n" for row in rows if row.group is not None
    )
    return gofmt(
        "// Code generated from openapi.yaml's ErrorCode x-error-table by generator/error_table.py. DO NOT EDIT.\n\n"
        "package agenticdriver\n\n"
        "// The sentinel of every code in the catalogue: errors.Is(err, ErrSessionBusy) holds for every\n"
        "// *ProblemError with that code.\n"
        f"var (\n{declared})\n\n"
        "// allSentinels lists every sentinel, in the catalogue's order (Sentinel reads it).\n"
        f"var allSentinels = []*CodeError{{\n{listed}}}\n\n"
        "// The groups every client shares (x-error-table's group): errors.Is(err, ErrProviderFailed) holds for\n"
        "// every *ProblemError whose code is in that group.\n"
        f"var (\n{groups})\n\n"
        "// codeGroups is the group of each code that has one.\n"
        f"var codeGroups = map[ErrorCode]*GroupError{{\n{grouped}}}\n",
        "the Go sentinels",
        TableError,
    )


def _go_comment(markdown: str) -> str:
    """A doc comment of 100-column lines, the Markdown's code spans as plain words."""
    lines = textwrap.wrap(markdown.replace("`", ""), width=96, break_long_words=False, break_on_hyphens=False)
    return "".join(f"\t// {line}\n" for line in lines)


# -- the TypeScript client's classes ------------------------------------------------------------------------------

TS_TYPES = {"integer": "number", "string": "string"}
TS_EVERY_CODE = "{ [C in ErrorCode]: ProblemErrorClass<C> }"
"""PROBLEM_ERRORS's type: the build fails if a code of the generated ErrorCode has no class."""


def render_typescript(rows: list[Row]) -> str:
    groups = sorted({row.group for row in rows if row.group})
    bases = ", ".join(["ProblemError", *(f"{group}Error" for group in groups)])
    classes = "".join(_ts_class(row) for row in rows)
    entries = "".join(f"  {row.code}: {row.error_class},\n" for row in rows)
    return (
        "// Generated from openapi.yaml's ErrorCode x-error-table by generator/error_table.py. DO NOT EDIT.\n"
        "// Each code's class, under its group (errors-base.ts), and PROBLEM_ERRORS; errors.ts re-exports them.\n\n"
        "import type { ErrorCode } from './generated/types.gen.js';\n"
        f"import {{ {bases}, type ProblemErrorClass }} from './errors-base.js';\n\n"
        f"{classes}\n"
        "/** The error class of each catalogue code. */\n"
        f"export const PROBLEM_ERRORS = {{\n{entries}}} as const satisfies {TS_EVERY_CODE};\n\n"
        "/** Any catalogue error, discriminated by `code`: `switch (error.code)` narrows to one class. */\n"
        "export type KnownProblemError = InstanceType<(typeof PROBLEM_ERRORS)[ErrorCode]>;\n"
    )


def _ts_class(row: Row) -> str:
    text = f"{row.status} `{row.code}`: {row.fix}".replace("*/", "*\\/")
    doc = "".join(f" * {line}\n" for line in textwrap.wrap(text, width=100))
    base = f"{row.group}Error" if row.group else "ProblemError"
    head = f"/**\n{doc} */\nexport class {row.error_class} extends {base}<'{row.code}'> {{"
    if not row.fields:
        return head + "}\n"
    declared = "".join(f"  declare readonly {field.name}: {TS_TYPES[field.type]};\n" for field in row.fields)
    return f"{head}\n{declared}}}\n"


# -- writing and checking -----------------------------------------------------------------------------------------

OUTPUTS: dict[str, Callable[[list[Row]], str]] = {
    "server/src/agentic_driver/error_table.py": render_server,
    SERVER_CLASSES: render_server_classes,
    "clients/go/codes_gen.go": render_go,
    "clients/typescript/src/errors.gen.ts": render_typescript,
    "clients/python/agentic_driver_sdk/_code_errors.py": render_python,
    "clients/rust/src/error/kind.rs": render_rust_kinds,
}


def main() -> int:
    return run_table_generator(
        __doc__, load_table, OUTPUTS, refusal=TableError, name="error_table", source="openapi.yaml's x-error-table"
    )


if __name__ == "__main__":
    sys.exit(main())
