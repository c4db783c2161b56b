"""The host's log output: readable text by default, or one JSON object per line (``--log-format json``).

Every record written while a request is served carries that request's id, operation, session and run
(``request_context``); the line that closes a request (logger ``agentic_driver.access``) adds its status,
problem code and duration. Both formats pass the finished line through ``Redactor``, which replaces every
secret the host knows (bearer tokens, provider API keys) with ``[redacted]``: the code never logs one on
purpose, and this keeps an exception text or a library's debug line from leaking one by accident.

JSON fields: ``timestamp`` (RFC 3339 UTC, milliseconds), ``level``, ``logger``, ``message``, and when known
``request_id``, ``operation``, ``status``, ``code``, ``duration_ms``, ``session_id``, ``run_id``, ``exception``.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, Literal

import orjson

from . import request_context

__all__ = ["LOG_FORMATS", "JsonFormatter", "Redactor", "TextFormatter", "access_log", "configure_logging"]

LogFormat = Literal["text", "json"]
LOG_FORMATS: tuple[LogFormat, ...] = ("text", "json")
REDACTED = "[redacted]"
MIN_SECRET_CHARS = 8
"""Shorter values are not redacted: replacing every 'a' would make the log unreadable and protect nothing."""

access_log = logging.getLogger("agentic_driver.access")

_CONTEXT_FIELDS = ("request_id", "operation", "session_id", "run_id")
_ACCESS_FIELDS = ("status", "code", "duration_ms")


class Redactor:
    """Replaces known secrets in finished log lines (the set grows as the host reads its config)."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._secrets: set[str] = set()
        self.add(secrets)

    def add(self, secrets: Iterable[str | None]) -> None:
        self._secrets.update(s for s in secrets if s is not None and len(s) >= MIN_SECRET_CHARS)

    def __call__(self, line: str) -> str:
        for secret in self._secrets:
            if secret in line:
                line = line.replace(secret, REDACTED)
        return line

    def __repr__(self) -> str:
        return f"Redactor({len(self._secrets)} secrets)"


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    """The request fields of ``record``: given with ``extra=`` (the access line) or from the current request."""
    fields: dict[str, Any] = {}
    context = request_context.current()
    for name in _CONTEXT_FIELDS:
        value = getattr(record, name, None)
        if value is None and context is not None:
            value = getattr(context, name)
        if value is not None:
            fields[name] = value
    for name in _ACCESS_FIELDS:
        value = getattr(record, name, None)
        if value is not None:
            fields[name] = value
    return fields


class TextFormatter(logging.Formatter):
    """``LEVEL logger: message`` then the request's fields as ``name=value`` (readable, still greppable)."""

    def __init__(self, redact: Redactor) -> None:
        super().__init__("%(levelname)s %(name)s: %(message)s")
        self._redact = redact

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        fields = _fields(record)
        if fields:
            line += " " + " ".join(f"{name}={value}" for name, value in fields.items())
        return self._redact(line)


class JsonFormatter(logging.Formatter):
    def __init__(self, redact: Redactor) -> None:
        super().__init__()
        self._redact = redact

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "timestamp": datetime.fromtimestamp(record.created, UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(_fields(record))
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return self._redact(orjson.dumps(entry, default=str).decode())


def configure_logging(level: str, log_format: LogFormat, redact: Redactor) -> logging.Handler:
    """One stderr handler on the root logger in the chosen format (uvicorn's loggers propagate to it)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(redact) if log_format == "json" else TextFormatter(redact))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        uvicorn_logger = logging.getLogger(name)
        uvicorn_logger.handlers.clear()
        uvicorn_logger.propagate = True
    return handler
