"""Small pieces the adapters' wire mappings share: the user's text, stored items, tool arguments."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from .base import ModelRequest, RejectedFailure

__all__ = ["dump_item", "load_item", "parse_arguments", "user_text"]


def user_text(request: ModelRequest) -> str:
    """The input, followed by a stateless run's retrieved documents and text attachments.

    Only text attachments (``text/*``, JSON) are sent; any other kind is refused
    rather than silently dropped.
    """
    parts = [request.input]
    for document_id, text in request.retrieval:
        parts.append(f"[document {document_id}]\n{text}")
    for name, media_type, data in request.attachments:
        if not (media_type.startswith("text/") or media_type in ("application/json", "application/xml")):
            raise RejectedFailure(f"attachment {name!r} is {media_type}; this adapter sends text attachments only")
        try:
            text = base64.b64decode(data, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            raise RejectedFailure(f"attachment {name!r} is not base64-encoded UTF-8 text") from None
        parts.append(f"[attachment {name} ({media_type})]\n{text}")
    return "\n\n".join(parts)


def dump_item(item: Any) -> str:
    """A provider item as the JSON text the host stores (and returns unchanged)."""
    return json.dumps(item, ensure_ascii=False, separators=(",", ":"))


def load_item(raw: str) -> Any:
    """A stored item back as JSON (the host kept the text byte for byte)."""
    try:
        return json.loads(raw)
    except ValueError:
        raise RejectedFailure("a stored native item is not JSON; the session cannot be continued") from None


def parse_arguments(text: str | None) -> dict[str, Any]:
    """A model's tool-call arguments; anything but a JSON object is kept as ``{"_raw": text}``."""
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return {"_raw": text}
    return value if isinstance(value, dict) else {"_raw": text}
