"""Only ``sessions/`` writes a ``SessionRecord``: every other module of the host only reads records.

Read from the source by attribute name: an assignment, augmented assignment or ``del`` whose target is
an attribute named like a ``SessionRecord`` field, or a mutating call on one (``x.history.append``),
anywhere outside ``sessions/``. A few other objects have attributes of the same names; they are
listed by module and expression below, each with the type it really is.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import agentic_driver
from agentic_driver.sessions.records import SessionRecord

PACKAGE_DIR = Path(agentic_driver.__file__).resolve().parent
RECORD_FIELDS = frozenset(field.name for field in dataclasses.fields(SessionRecord))
MUTATORS = frozenset({"append", "extend", "add", "insert", "pop", "clear", "remove", "update", "keep"})
NOT_A_SESSION_RECORD = {
    ("http/observe.py", "context.status"),  # the request's observation context
    ("turns/idempotency.py", "record.expires_ms"),  # an idempotency record
    ("turns/lifecycle.py", "step.native"),  # one model step's native items
}


def record_writes(source: str) -> list[str]:
    """The expressions in ``source`` that would change an object named like a SessionRecord's field."""
    writes = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign | ast.Delete):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            targets = [node.func.value]
        for target in targets:
            while isinstance(target, ast.Subscript):
                target = target.value
            own = isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
            if isinstance(target, ast.Attribute) and target.attr in RECORD_FIELDS and not own:
                writes.append(ast.unparse(target))
    return writes


def test_the_scan_sees_every_kind_of_write() -> None:
    source = (
        "record.active_run = run\n"
        "record.revision += 1\n"
        "del record.history[3:]\n"
        "run.session.native_filter = 'compact'\n"
        "record.accounting.add(figures)\n"
        "record.turns[0] = turn\n"
        "self.status = 'x'\n"  # an object's own attribute, not a record's
        "print(record.history)\n"
    )

    assert sorted(record_writes(source)) == [
        "record.accounting",
        "record.active_run",
        "record.history",
        "record.revision",
        "record.turns",
        "run.session.native_filter",
    ]


def test_nothing_outside_sessions_writes_a_session_record() -> None:
    found = set()
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        relative = path.relative_to(PACKAGE_DIR).as_posix()
        if relative.startswith("sessions/") or relative == "models.py":  # models.py: generated request models
            continue
        found |= {(relative, write) for write in record_writes(path.read_text(encoding="utf-8"))}

    assert found - NOT_A_SESSION_RECORD == set()
    assert found >= NOT_A_SESSION_RECORD, "an entry of NOT_A_SESSION_RECORD no longer matches anything: drop it"
