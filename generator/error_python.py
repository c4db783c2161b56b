"""Render the Python SDK's class per catalogue code (``clients/python/agentic_driver_sdk/_code_errors.py``) from
openapi.yaml's ``x-error-table``; ``error_table.py`` writes it with its other outputs (``OUTPUTS``).

Each row becomes one class, in the table's order: under the class of its status (``_STATUS_BASES``; any 5xx is an
``InternalServerError``) and, when that does not already say it, under its group's class (``ProviderFailedError``,
``RetryLaterError``). Its guaranteed ``fields`` are typed attributes set in ``__init__`` (``error_from_response``
falls back to the status class when one is missing: ``REQUIRED_FIELDS``), its ``optional`` ones read-only
properties that are None (``[]`` for a list) when the problem lacks them or sends another JSON type. What the SDK
writes by hand about a code (a note after its fix-it text) stays in ``_exceptions.py``.
"""

from __future__ import annotations

import re
import textwrap
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

if TYPE_CHECKING:
    # Only for annotations: error_table imports this module, so importing it back at run time would be a cycle.
    from error_table import Field, Row

ROOT = Path(__file__).resolve().parents[1]
LINE = 120
"""The repository's ruff line length: the output must pass ``ruff format --check`` as rendered."""

_STATUS_BASES = {
    401: "AuthenticationError",
    404: "NotFoundError",
    409: "ConflictError",
    422: "UnprocessableEntityError",
    429: "RateLimitError",
}
"""The status classes a code's class derives from (5xx: ``InternalServerError``; any other: ``APIStatusError``).
403, 405, 413 and 415 have no class of their own: their one code's class is also their status class."""
_GROUP_BASES = {
    "NotFound": "NotFoundError",
    "Conflict": "ConflictError",
    "Unprocessable": "UnprocessableEntityError",
    "ProviderFailed": "ProviderFailedError",
    "RetryLater": "RetryLaterError",
}
_ROOT_BASE = "APIStatusError"
_TAKEN = {"response", "status_code", "problem", "code", "detail", "request_id", "headers", "retry_after", "args"}
"""``APIStatusError``'s own attributes (and ``Exception.args``): a field must not hide one."""

_ANNOTATIONS = {"integer": "int | None", "string": "str | None", "issues": "list[dict[str, Any]]"}
"""An optional field's property type; a guaranteed field's attribute drops the ``| None``."""
_READS = {
    "integer": "value if isinstance(value, int) and not isinstance(value, bool) else None",
    "string": "value if isinstance(value, str) else None",
    "issues": "value if isinstance(value, list) else []",
}
"""What an optional field's property returns of the problem's ``value`` (a JSON ``true`` is no integer)."""
_KINDS = {"integer": "int", "string": "str", "issues": "list"}
"""The Python type ``error_from_response`` requires of a guaranteed field (``REQUIRED_FIELDS``)."""

HEADER = '''\
# Generated from openapi.yaml's ErrorCode x-error-table by generator/error_python.py (make generate). DO NOT EDIT.
"""The class of each catalogue code under its status class and group (``_error_tree``): the ``fields`` every answer
with it carries as attributes, its ``optional`` ones as properties; ``CODE_ERRORS`` and ``REQUIRED_FIELDS``.
``_exceptions`` adds this client's note to a class's docstring and exports them all."""

from __future__ import annotations
'''


def render_python(rows: list[Row]) -> str:
    classes = "".join(f"\n\n{_class(row)}" for row in rows)
    tail = f"{_code_errors(rows)}\n{_required(rows)}\n{_tree(rows)}"
    return f"{HEADER}\n{_imports(rows)}\n{_exports(rows)}{classes}\n\n{tail}"


_STATUS_LABELS = {**{status: str(status) for status in _STATUS_BASES}, 500: "5xx"}
_TREE_INDENT = 12
"""Where the tree stands in ``_exceptions``'s docstring (under ``APIStatusError``): its lines must fit there."""
_NAME_COLUMN = 40
_MARKS = {"ProviderFailed": "[P]", "RetryLater": "[R]"}


def _tree(rows: list[Row]) -> str:
    """``TREE``: ``APIStatusError``'s subtree drawn in text, each status class where its first code is in the table,
    each code with the members it exposes and a mark for the group it is also in."""
    top: list[str | Row] = []
    for row in rows:
        parent = bases(row)[0]
        if parent == _ROOT_BASE or parent in set(_GROUP_BASES.values()) - set(_STATUS_BASES.values()):
            top.append(row)
        elif parent not in top:
            top.append(parent)
    lines: list[str] = []
    for index, item in enumerate(top):
        last = index == len(top) - 1
        if isinstance(item, str):
            status = 500 if item == "InternalServerError" else next(s for s, n in _STATUS_BASES.items() if n == item)
            lines.append(f"{'└' if last else '├'}── {item}".ljust(_NAME_COLUMN) + _STATUS_LABELS[status])
            members = [row for row in rows if bases(row)[0] == item]
            for place, row in enumerate(members):
                end = place == len(members) - 1
                branch = f"{' ' if last else '│'}   {'└' if end else '├'}── "
                lines += _entry(branch, row, nested=True, last=(last, end))
        else:
            lines += _entry(f"{'└' if last else '├'}── ", item, nested=False, last=(last, True))
    text = "\n".join(line.rstrip() for line in lines)
    about = '"""The code classes under ``APIStatusError``, drawn as text (``_exceptions`` shows them)."""'
    return f'TREE = """\\\n{text}\n"""\n{about}\n'


def _entry(prefix: str, row: Row, *, nested: bool, last: tuple[bool, bool]) -> list[str]:
    """A code's line (and its continuations when its members do not fit): class, code, members, group mark."""
    members = [f".{f.snake}: {_ANNOTATIONS[f.type].removesuffix(' | None')}" for f in row.fields]
    members += [f".{f.snake}" for f in row.optional]
    said = f"{row.code} ({', '.join(members)})" if members else row.code
    said = f"{said} {_MARKS[row.group]}" if row.group in _MARKS else said
    head = (prefix + row.error_class).ljust(_NAME_COLUMN + (4 if nested else 0))
    if not nested:
        said = f"{row.status} {said}"
    width = LINE - _TREE_INDENT - len(head)
    pieces = textwrap.wrap(said, width, break_long_words=False, break_on_hyphens=False, subsequent_indent="    ")
    outer, inner = last
    bar = ("    " if outer else "│   ") + (("    " if inner else "│   ") if nested else "")
    return [head + pieces[0], *((bar.ljust(len(head)) + piece) for piece in pieces[1:])]


def bases(row: Row) -> tuple[str, ...]:
    """The class names ``row``'s class derives from, in MRO order."""
    status = "InternalServerError" if row.status >= 500 else _STATUS_BASES.get(row.status, _ROOT_BASE)
    group = _GROUP_BASES.get(row.group or "")
    if group is None or group == status:
        return (status,)
    return (group,) if status == _ROOT_BASE else (status, group)


def _imports(rows: list[Row]) -> str:
    tree = sorted({base for row in rows for base in bases(row)} - {_ROOT_BASE}, key=str.lower)
    guarded = any(row.fields for row in rows)
    typed = guarded or any(field.type == "issues" for row in rows for field in row.optional)
    lines = [
        *(["from typing import Any\n", "\n"] if typed else []),
        *(["import httpx\n", "\n"] if guarded else []),
        f"from ._error_base import {_ROOT_BASE}\n",
        _exploded("from ._error_tree import (", tree, ")") if tree else "",
    ]
    return "".join(lines)


def _exports(rows: list[Row]) -> str:
    return _exploded("__all__: tuple[str, ...] = (", [f'"{name}"' for name in sorted(_names(rows))], ")")


def _names(rows: list[Row]) -> list[str]:
    names = [row.error_class for row in rows]
    if len(set(names)) != len(names):
        raise ValueError(f"two codes share a class name: {sorted(n for n in names if names.count(n) > 1)}")
    return names


def _class(row: Row) -> str:
    head = f"class {row.error_class}({', '.join(bases(row))}):\n"
    parts = [_docstring(f"``{row.code}``: {_rest(row.fix)}", "    ")]
    if row.fields:
        parts.append(_guaranteed(row))
    parts += [_property(row, field) for field in row.optional]
    return head + "\n".join(parts)


def _guaranteed(row: Row) -> str:
    """The typed attributes of the fields every answer with the code carries, and the ``__init__`` setting them."""
    declared = "".join(
        f"    {_checked(row, field)}: {_ANNOTATIONS[field.type].removesuffix(' | None')}\n"
        + _docstring(_attribute_doc(field), "    ")
        for field in row.fields
    )
    assigned = "".join(f'        self.{field.snake} = problem["{field.name}"]\n' for field in row.fields)
    return (
        f"{declared}\n"
        "    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:\n"
        "        super().__init__(response, problem)\n"
        f"{assigned}"
    )


def _property(row: Row, field: Field) -> str:
    return (
        "    @property\n"
        f"    def {_checked(row, field)}(self) -> {_ANNOTATIONS[field.type]}:\n"
        f'        value = self.problem.get("{field.name}")\n'
        f"        return {_READS[field.type]}\n"
    )


def _checked(row: Row, field: Field) -> str:
    if field.snake in _TAKEN:
        raise ValueError(f"x-error-table.{row.code}: field {field.name!r} would hide APIStatusError.{field.snake}")
    return field.snake


def _code_errors(rows: list[Row]) -> str:
    entries = [f'"{row.code}": {row.error_class}' for row in rows]
    return (
        _exploded("CODE_ERRORS: dict[str, type[APIStatusError]] = {", entries, "}")
        + '"""Each catalogue code\'s class (a test keeps this in step with openapi.yaml\'s ErrorCode)."""\n'
    )


def _required(rows: list[Row]) -> str:
    entries = [
        _fitted(f"{row.error_class}: (", [f'("{field.name}", {_KINDS[field.type]})' for field in row.fields], ")")
        for row in rows
        if row.fields
    ]
    head = "REQUIRED_FIELDS: dict[type[APIStatusError], tuple[tuple[str, type], ...]] = {"
    table = _exploded(head, entries, "}") if entries else f"{head}}}\n"
    return table + (
        '"""Fields a code\'s class exposes as non-optional; a problem without them gets its status class instead."""\n'
    )


def _exploded(head: str, items: list[str], tail: str) -> str:
    """One item a line with a trailing comma: ruff format keeps that layout (its magic trailing comma) for any
    number of items, so the output needs no formatter."""
    return head + "\n" + "".join(f"    {item},\n" for item in items) + tail + "\n"


def _fitted(head: str, items: list[str], tail: str) -> str:
    """A dict entry's tuple on its line when it fits (a one-item tuple keeps its comma), else one item a line."""
    inline = ", ".join(items) + ("," if len(items) == 1 else "")
    if len(f"    {head}{inline}{tail},") <= LINE:
        return f"{head}{inline}{tail}"
    return head + "".join(f"\n        {item}," for item in items) + f"\n    {tail}"


def _docstring(text: str, indent: str) -> str:
    """``text`` as a docstring at ``indent``, wrapped so that no line, quotes included, passes ``LINE``."""
    if text.startswith('"') or text.endswith('"') or '"""' in text:
        raise ValueError(f"no docstring can hold {text!r} as it is")
    width = LINE - len(indent) - 2 * len('"""')
    lines = textwrap.wrap(text.replace("\\", "\\\\"), width, break_long_words=False, break_on_hyphens=False)
    return indent + '"""' + f"\n{indent}".join(lines) + '"""\n'


def _rest(markdown: str) -> str:
    """A Markdown text as reST, the way docs_reference.py writes ``_fix_it.py`` (which ``_exceptions`` makes each
    class's docstring of at run time): links keep their words, code spans get double backquotes."""
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", markdown)
    return re.sub(r"`([^`]+)`", r"``\1``", text)


def _attribute_doc(field: Field) -> str:
    """The ``Problem`` member's own description, without the codes it opens with: ``activeRunId`` -> "The run that
    holds the session. ..."."""
    described = re.sub(r"^(?:`[A-Z_]+`(?:, )?)+:\s*", "", _descriptions().get(field.name, ""))
    if not described:
        return f"The problem's ``{field.name}``; the contract guarantees it on this code."
    text = _rest(described[:1].upper() + described[1:]).rstrip(".")
    return f"{text}; the contract guarantees it on this code."


@cache
def _descriptions() -> dict[str, str]:
    """``Problem``'s member descriptions in openapi.yaml, whitespace folded. ``Row`` carries no descriptions, so
    they are read here; a test spec changes only the table, so this file describes its members too."""
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    members: dict[str, dict[str, object]] = spec["components"]["schemas"]["Problem"]["properties"]
    return {name: " ".join(str(member.get("description", "")).split()) for name, member in members.items()}
