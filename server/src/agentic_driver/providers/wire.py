"""Small pieces the adapters' wire mappings share: the user's text, stored items, tool arguments, and
``Shape``, which checks that an answer has what an adapter reads before it reads it."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Collection, Mapping
from typing import Any, Generic, TypeVar, cast

from pydantic import TypeAdapter, ValidationError
from typing_extensions import TypedDict

from .base import IMAGE_MEDIA_TYPES, PDF_MEDIA_TYPE, TEXT_MEDIA_TYPES, ModelRequest, ProviderFailure, RejectedFailure

__all__ = [
    "IMAGE_MEDIA_TYPES",
    "PDF_MEDIA_TYPE",
    "TEXT_MEDIA_TYPES",
    "Shape",
    "Tagged",
    "accepts_media_type",
    "binary_attachments",
    "data_url",
    "dump_item",
    "load_item",
    "parse_arguments",
    "user_text",
]


def accepts_media_type(accepted: Collection[str], media_type: str) -> bool:
    """Whether ``media_type`` is in ``accepted`` (media types, or ranges such as ``text/*``); case-insensitive."""
    wanted = media_type.split(";", 1)[0].strip().lower()
    major = wanted.split("/", 1)[0]
    return any(entry == wanted or entry == f"{major}/*" for entry in accepted)


def user_text(request: ModelRequest, binary: Collection[str] = ()) -> str:
    """The input, followed by a stateless run's retrieved documents and text attachments.

    Text attachments (``text/*``, JSON, XML) are decoded and appended; those of
    a ``binary`` type are left to the adapter, which sends them in its
    provider's own form (``binary_attachments``). Any other kind is refused
    rather than silently dropped (the host refuses it before model work, by
    the instance's advertised media types; this is the adapter's own guard).
    """
    parts = [request.input]
    for document_id, text in request.retrieval:
        parts.append(f"[document {document_id}]\n{text}")
    for name, media_type, data in request.attachments:
        if accepts_media_type(binary, media_type):
            continue
        if not accepts_media_type(TEXT_MEDIA_TYPES, media_type):
            raise RejectedFailure(f"attachment {name!r} is {media_type}; this adapter does not send it")
        try:
            text = base64.b64decode(data, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            raise RejectedFailure(f"attachment {name!r} is not base64-encoded UTF-8 text") from None
        parts.append(f"[attachment {name} ({media_type})]\n{text}")
    return "\n\n".join(parts)


def binary_attachments(request: ModelRequest, binary: Collection[str]) -> list[tuple[str, str, str]]:
    """The attachments the adapter sends natively: (name, media type in lower case, base64 data), in order."""
    return [
        (name, media_type.split(";", 1)[0].strip().lower(), data)
        for name, media_type, data in request.attachments
        if accepts_media_type(binary, media_type)
    ]


def data_url(media_type: str, data: str) -> str:
    """A ``data:`` URL carrying base64 content (what OpenAI's image and file inputs take)."""
    return f"data:{media_type};base64,{data}"


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


ShapeT = TypeVar("ShapeT")


class Shape(Generic[ShapeT]):
    """A wire shape an adapter reads (a ``TypedDict``), checked against what the provider sent.

    Checked strictly (a count must be a number, not a string of one) and only for what the adapter
    reads: members it does not declare pass untouched, and the provider's own data is what the adapter
    keeps, never a copy. A shape that does not fit is the provider's failure (``PROVIDER_ERROR``) naming
    the first member that is missing or of the wrong type; so whatever fails after the check is ours.
    """

    __slots__ = ("_adapter", "what")

    def __init__(self, shape: type[ShapeT], what: str) -> None:
        self._adapter: TypeAdapter[ShapeT] = TypeAdapter(shape)
        self.what = what

    def of(self, data: Any, at: str = "") -> ShapeT:
        """``data`` itself, once it is known to have this shape (``at``: where it is in the answer)."""
        try:
            self._adapter.validate_python(data, strict=True)
        except ValidationError as error:
            where = f" ({at})" if at else ""
            raise ProviderFailure(
                f"the provider's {self.what}{where} is not of the shape this adapter reads: {_first_problem(error)}"
            ) from None
        return cast(ShapeT, data)


class _Typed(TypedDict):
    type: str


class Tagged:
    """A union tagged by its ``type`` member (content blocks, output items, stream events): each kind the
    adapter reads, with the ``Shape`` it must have; a kind not listed passes once it has a ``type``."""

    __slots__ = ("_kinds", "_typed")

    def __init__(self, what: str, kinds: Mapping[str, Shape[Any]]) -> None:
        self._typed = Shape(_Typed, what)
        self._kinds = dict(kinds)

    def __contains__(self, kind: object) -> bool:
        return kind in self._kinds

    def of(self, data: Any, at: str = "") -> str:
        """The kind of ``data``, once ``data`` has that kind's shape (``at``: where it is in the answer)."""
        kind = self._typed.of(data, at)["type"]
        shape = self._kinds.get(kind)
        if shape is not None:
            shape.of(data, at)
        return kind

    def each(self, items: list[Any], name: str) -> list[Any]:
        """``items`` themselves, once each has its kind's shape (found at ``name[index]``)."""
        for index, item in enumerate(items):
            self.of(item, f"{name}[{index}]")
        return items


def _first_problem(error: ValidationError) -> str:
    problems = error.errors(include_url=False, include_input=False)
    first = problems[0]
    where = ".".join(str(part) for part in first["loc"])
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return (f"{where}: {first['msg']}" if where else str(first["msg"])) + more
