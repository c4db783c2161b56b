"""The error-code catalogue and the exception tree.

Every failure the driver reports is a ``DriverError`` subclass carrying one stable ``code`` of the catalogue;
the HTTP layer renders it as an RFC 9457 problem with that code's status, and embedded callers catch the same
classes. ``openapi.yaml``'s ``x-error-table`` is the one place a code's facts are written: ``make generate``
writes ``error_table`` (``ErrorCode``, ``CATALOGUE``, ``WHAT_TO_DO``) and ``error_classes`` (a class per code,
under its group, taking the code's members by keyword) from it; ``error_classes`` draws the tree. The groups
(``NotFound``, ``Conflict``, ``Unprocessable``, ``ProviderFailed``, ``RetryLater``, in ``error_base``) carry no
code of their own: they mirror every client's groups so an embedded caller can catch a family at once. The
``PROVIDER_*`` codes report upstream failures after model work started (see ``providers.base.ProviderFailure``).

This module re-exports all of it, with ``error_of_problem``, which rebuilds the error a problem answered.
"""

from __future__ import annotations

import textwrap
from typing import Any

from . import error_base, error_classes
from .error_base import *  # noqa: F403  (re-exported: the tree's root and groups)
from .error_base import DriverError
from .error_classes import *  # noqa: F403  (re-exported: a class per code, generated)
from .error_table import CATALOGUE, CodeSpec, ErrorCode

# help(errors) shows the whole tree, drawn from the table in the generated module.
__doc__ = f"{__doc__}\n{textwrap.indent(error_classes.__doc__ or '', '    ')}"

__all__ = [
    *error_base.__all__,
    *error_classes.__all__,
    "CATALOGUE",
    "CodeSpec",
    "ErrorCode",
    "error_of_problem",
]


def error_of_problem(code: str, detail: str, retry_after_seconds: int | None, fields: dict[str, Any]) -> DriverError:
    """The error a problem answered, as the class of its code, with its members as they were (an idempotency
    record kept across a restart replays it). Raises ValueError for a code this catalogue does not know."""
    cls = _CLASSES[ErrorCode(code)]
    error = cls.__new__(cls)  # a class's own __init__ takes its fields by name; these are the answered members
    DriverError.__init__(error, detail, retry_after_seconds=retry_after_seconds, **fields)
    return error


def _classes() -> dict[ErrorCode, type[DriverError]]:
    """Each code's class: the subclass of DriverError that declares it."""
    found: dict[ErrorCode, type[DriverError]] = {}
    pending: list[type[DriverError]] = [DriverError]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if "code" in cls.__dict__:
            found[cls.code] = cls
    return found


_CLASSES = _classes()
