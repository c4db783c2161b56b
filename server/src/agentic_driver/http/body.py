"""Request bodies: media type, size bound, then strict validation against the generated model."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import ClientDisconnect, Request

from ..errors import PayloadTooLarge, UnsupportedMediaType, ValidationFailed
from ..jsontext import unique_members
from .headers import request_header

__all__ = ["parse_body"]

ModelT = TypeVar("ModelT", bound=BaseModel)


async def parse_body(request: Request, model: type[ModelT], max_bytes: int) -> ModelT:
    """The validated body, or a VALIDATION_ERROR naming every problem. Never coerces types."""
    _require_json(request)
    raw = await _read_bounded(request, max_bytes)
    try:
        return model.model_validate(_decode_json(raw), strict=True)
    except ValidationError as error:
        issues = [
            {"location": ".".join(["body", *(str(p) for p in e["loc"])]), "message": e["msg"]}
            for e in error.errors(include_url=False, include_context=False, include_input=False)
        ]
        raise ValidationFailed(
            f"The request body is not a valid {model.__name__}: {issues[0]['location']}: {issues[0]['message']}.",
            errors=issues,
        ) from None


class _NotJson(ValueError):
    pass


def _decode_json(raw: bytes) -> Any:
    """Standard JSON, with numbers as JSON Schema sees them: ``2.0`` is the integer 2.

    Strict validation then refuses every coercion (``"2"`` is not an integer).
    Non-standard constants (NaN, Infinity), lone UTF-16 surrogates and repeated
    member names are refused: with a repeated name, parsers disagree about which
    value counts (most keep the last), so a body that means different things to a
    proxy and to the host is not accepted at all.
    """
    try:
        value = _loads(raw.decode(_encoding(raw), "surrogatepass"))
        return _checked(value) if _may_hold_surrogates(raw) else value
    except (ValueError, RecursionError) as error:
        raise ValidationFailed(
            f"The request body is not valid JSON: {error}.", errors=[{"location": "body", "message": str(error)}]
        ) from None


_NOT_UTF8_FIRST = frozenset((0x00, 0xEF, 0xFE, 0xFF))
"""First bytes of every BOM ``json.detect_encoding`` knows (UTF-32, UTF-16, UTF-8), and NUL."""


def _encoding(raw: bytes) -> str:
    """``json.detect_encoding(raw)``, answered at once for the usual body: its first byte begins no BOM and
    neither of its first two bytes is NUL (then detect_encoding says UTF-8 too)."""
    if len(raw) >= 2 and raw[0] not in _NOT_UTF8_FIRST and raw[1]:
        return "utf-8"
    return json.detect_encoding(raw)


_SURROGATE_UTF8_OR_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]|\xed[\xa0-\xbf]")


def _may_hold_surrogates(raw: bytes) -> bool:
    """Whether decoding ``raw`` can have produced a lone surrogate, so the decoded value must be walked.

    A UTF-8 text yields one only from a ``\\uD800``-``\\uDFFF`` escape or from the bytes of an encoded
    surrogate (which ``json.loads`` lets through); texts in UTF-16 or UTF-32 (a BOM or a NUL among the
    first four bytes, as ``json.detect_encoding`` sees them) are always walked.
    """
    if 0 in raw[:4] or raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    # Both forms begin with a byte (a backslash, 0xED) that memchr finds far faster than the pattern can.
    return (0x5C in raw or 0xED in raw) and _SURROGATE_UTF8_OR_ESCAPE.search(raw) is not None


def _number(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() else value


def _no_constant(name: str) -> None:
    raise _NotJson(f"{name} is not a JSON value")


_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder(  # type: ignore[attr-defined]  # set in its __init__
    parse_float=_number, parse_constant=_no_constant, object_pairs_hook=unique_members
).scan_once
"""One scanner for every body (it keeps no state between documents: its key memo is cleared after each)."""
_WHITESPACE = " \t\n\r"


def _loads(text: str) -> Any:
    """``json.loads(text, parse_float=_number, parse_constant=_no_constant, object_pairs_hook=unique_members)``,
    the same value or the same ``JSONDecodeError``, without a decoder built per body and its two whitespace
    patterns (``JSONDecoder.decode`` and ``raw_decode``, with ``str.lstrip`` for ``WHITESPACE.match``)."""
    start = len(text) - len(text.lstrip(_WHITESPACE)) if text[:1] in _WHITESPACE else 0
    try:
        value, end = _SCAN(text, start)
    except StopIteration as error:
        raise json.JSONDecodeError("Expecting value", text, error.value) from None
    if end != len(text):
        end = len(text) - len(text[end:].lstrip(_WHITESPACE))
        if end != len(text):
            raise json.JSONDecodeError("Extra data", text, end)
    return value


def _checked(value: Any) -> Any:
    if isinstance(value, str):
        value.encode("utf-8")  # raises on a lone surrogate, which no JSON text may carry
    elif isinstance(value, list):
        for item in value:
            _checked(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _checked(key)
            _checked(item)
    return value


def _require_json(request: Request) -> None:
    media_type = (request_header(request, b"content-type") or "").split(";", 1)[0].strip().lower()
    if media_type != "application/json":
        raise UnsupportedMediaType(f"The request body must be application/json, not {media_type or 'untyped'}.")


async def _read_bounded(request: Request, max_bytes: int) -> bytes:
    """The whole body, read straight from ``receive`` (Starlette's ``stream()`` adds a generator per request)."""
    declared = request_header(request, b"content-length")
    if declared is not None and declared.isdigit() and int(declared) > max_bytes:
        raise _too_large(max_bytes)
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnect()
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > max_bytes:
            raise _too_large(max_bytes)
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _too_large(max_bytes: int) -> PayloadTooLarge:
    return PayloadTooLarge(f"The request body exceeds {max_bytes} bytes.", maximum=max_bytes)
