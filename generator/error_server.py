"""The host's exception class per catalogue code, rendered from openapi.yaml's x-error-table (``error_table.py``
writes it as server/src/agentic_driver/error_classes.py).

Each class sits under its group (``error_base``: ``NotFound``, ``Conflict``, ...), or straight under
``DriverError``; its docstring is the code's status and fix-it text. A code with members takes them by keyword,
in Python spelling (``activeRunId`` -> ``active_run_id``): the guaranteed ones required, the optional ones
defaulting to None and left out of the problem when None. Every class also takes ``retry_after_seconds``.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from error_table import Row

ROOT = Path(__file__).resolve().parents[1]
TARGET = "server/src/agentic_driver/error_classes.py"

NAMES = {"VALIDATION_ERROR": "ValidationFailed"}
"""Server class names that are not the code in PascalCase: the HTTP layer imports pydantic's ValidationError."""

TYPES = {"integer": "int", "string": "str", "issues": "list[dict[str, str]]"}

DEFAULTS: dict[str, dict[str, str]] = {
    "SESSION_BUSY": {"retry_after_seconds": "1"},
    "PAYLOAD_TOO_LARGE": {"limit": '"maxBodyBytes"'},
    "REQUEST_TIMEOUT": {"limit": '"bodyTimeoutMs"'},
    "HEADERS_TOO_LARGE": {"limit": '"maxHeaderBytes"'},
    "SESSION_STORE_FULL": {"limit": '"maxEntries"'},
    "HOST_BUSY": {"limit": '"maxQueuedRuns"', "retry_after_seconds": "1"},
    "SHUTTING_DOWN": {"retry_after_seconds": "1"},
    "HOST_UNAVAILABLE": {"retry_after_seconds": "1"},
}
"""The host's own values a raise site need not repeat, as Python source: the setting a bound is named by where
one setting is the only bound of its code, and the one-second wait of a busy or draining host. The table is the
contract's; these are the host's (another host may name its settings otherwise)."""


HEADER = '''# Generated from openapi.yaml's ErrorCode x-error-table by generator/error_server.py. DO NOT EDIT.
"""The exception class of each catalogue code, under its group (``error_base``); ``errors`` re-exports them.

{tree}
"""

from __future__ import annotations

from .error_base import Conflict, DriverError, NotFound, ProviderFailed, RetryLater, Unprocessable, present
from .error_table import ErrorCode

'''


def class_name(row: Row) -> str:
    return NAMES.get(row.code, row.pascal)


def render_server_classes(rows: list[Row]) -> str:
    _check_defaults(rows)
    names = "".join(f'    "{name}",\n' for name in sorted(class_name(row) for row in rows))
    body = HEADER.replace("{tree}", tree(rows)) + f"__all__ = [\n{names}]\n" + "".join(_class(row) for row in rows)
    return _ruff_format(body)


HOST_ONLY: dict[str, tuple[tuple[str, str, str], ...]] = {
    # Why a presented token was refused (auth.Rejection, a reason class the 401's challenge carries as
    # error_description); None when no token was presented at all. Never a problem member.
    "UNAUTHENTICATED": (("invalid_token", "str | None", "None"),),
    # The run the key's first request started, once admitted, and how far its events got: a retry of a run that
    # continues on disconnect joins it instead. Neither is a problem member.
    "IDEMPOTENCY_KEY_IN_USE": (("run_id", "str | None", "None"), ("after", "int", "0")),
}
"""Attributes the host keeps on an error and never sends: (name, type, default) per code."""


def _check_defaults(rows: list[Row]) -> None:
    """A default must name a code of the table and one of its optional members (or the wait)."""
    members = {row.code: {m.snake for m in row.optional} | {"retry_after_seconds"} for row in rows}
    for code, defaults in DEFAULTS.items():
        if code not in members or not set(defaults) <= members[code]:
            raise ValueError(f"error_server.DEFAULTS[{code!r}]: {sorted(defaults)} are not optional members of it")


def tree(rows: list[Row]) -> str:
    """The classes as a tree drawn in text, each group where its first code is in the table."""
    top: list[str | Row] = []
    for row in rows:
        if row.group is None:
            top.append(row)
        elif row.group not in top:
            top.append(row.group)
    lines = ["DriverError"]
    for index, item in enumerate(top):
        last = index == len(top) - 1
        if isinstance(item, str):
            lines.append(f"{'└' if last else '├'}── {item}")
            members = [row for row in rows if row.group == item]
            for place, row in enumerate(members):
                branch = "└" if place == len(members) - 1 else "├"
                lines.append(_line(f"{' ' if last else '│'}   {branch}── ", row))
        else:
            lines.append(_line(f"{'└' if last else '├'}── ", item))
    return "\n".join(lines)


def _line(prefix: str, row: Row) -> str:
    return f"{prefix}{class_name(row)}".ljust(40) + f"{row.status} {row.code}"


def _class(row: Row) -> str:
    doc = textwrap.fill(
        f"{row.status} ``{row.code}``: {row.fix}",
        width=110,  # with its indent and quotes, a line fits in 120 columns
        break_long_words=False,
        break_on_hyphens=False,
        subsequent_indent="    ",
    ).replace("\\", "\\\\")
    base = row.group or "DriverError"
    head = f'\n\nclass {class_name(row)}({base}):\n    """{doc}"""\n\n    code = ErrorCode.{row.code}\n'
    members = (*row.fields, *row.optional)
    defaults, kept_only = DEFAULTS.get(row.code, {}), HOST_ONLY.get(row.code, ())
    if not members and not defaults and not kept_only:
        return head
    required = [f"{m.snake}: {TYPES[m.type]}" for m in row.fields]
    optional = [f"{m.snake}: {TYPES[m.type]} | None = {defaults.get(m.snake, 'None')}" for m in row.optional]
    wait = f"retry_after_seconds: int | None = {defaults.get('retry_after_seconds', 'None')}"
    host_only = [f"{name}: {kind} = {default}" for name, kind, default in kept_only]
    parameters = ", ".join([*required, *optional, *host_only, wait])
    sent = ", ".join(f'"{m.name}": {m.snake}' for m in members)
    passed = f", **present({{{sent}}})" if members else ""
    names = [*(m.snake for m in members), *(name for name, _, _ in kept_only)]
    kept = "".join(f"        self.{name} = {name}\n" for name in names)
    return (
        head
        + f"\n    def __init__(self, detail: str, *, {parameters}) -> None:\n"
        + f"        super().__init__(detail, retry_after_seconds=retry_after_seconds{passed})\n"
        + kept
    )


def _ruff_format(source: str) -> str:
    """The module as ``ruff format`` writes it under the server's configuration (so lint never differs)."""
    ruff = Path(sys.executable).parent / "ruff"
    command = [str(ruff if ruff.exists() else "ruff"), "format", "--stdin-filename", TARGET, "-"]
    done = subprocess.run(command, input=source, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"ruff format refused the rendered {TARGET}: {done.stderr}")
    return done.stdout
