"""Request bodies: media type, size bound, then strict validation against the generated model."""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import Request

from ..errors import PayloadTooLarge, UnsupportedMediaType, ValidationFailed

__all__ = ["parse_body"]

ModelT = TypeVar("ModelT", bound=BaseModel)


async def parse_body(request: Request, model: type[ModelT], max_bytes: int) -> ModelT:
    """The validated body, or a VALIDATION_ERROR naming every problem. Never coerces types."""
    _require_json(request)
    raw = await _read_bounded(request, max_bytes)
    try:
        return model.model_validate_json(raw, strict=True)
    except ValidationError as error:
        issues = [
            {"location": ".".join(["body", *(str(p) for p in e["loc"])]), "message": e["msg"]}
            for e in error.errors(include_url=False, include_context=False, include_input=False)
        ]
        raise ValidationFailed(
            f"The request body is not a valid {model.__name__}: {issues[0]['location']}: {issues[0]['message']}.",
            errors=issues,
        ) from None


def _require_json(request: Request) -> None:
    media_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media_type != "application/json":
        raise UnsupportedMediaType(f"The request body must be application/json, not {media_type or 'untyped'}.")


async def _read_bounded(request: Request, max_bytes: int) -> bytes:
    too_large = PayloadTooLarge(f"The request body exceeds {max_bytes} bytes.", maximum=max_bytes)
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > max_bytes:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_bytes:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)
