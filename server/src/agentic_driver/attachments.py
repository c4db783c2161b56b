"""What a stateless run may attach: the instance's media types and the host's size bounds, checked before any
model work.

Each adapter advertises the media types it sends in its provider's own form
(``Capabilities.attachment_media_types``, in discovery ``attachmentMediaTypes``);
host JSON bounds the decoded size of each attachment (``limits.maxAttachmentBytes``)
and of a run's attachments together (``limits.maxRunAttachmentBytes``). Anything
else is ``ATTACHMENT_UNSUPPORTED`` naming the attachment, its type and the
instance; content that is not base64 is ``VALIDATION_ERROR``.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass

from .config import DEFAULT_MAX_ATTACHMENT_BYTES, DEFAULT_MAX_RUN_ATTACHMENT_BYTES
from .errors import AttachmentUnsupported, ValidationFailed
from .models import Attachment
from .providers import Provider
from .providers.wire import accepts_media_type

__all__ = ["AttachmentLimits", "check_attachments"]


@dataclass(frozen=True, slots=True)
class AttachmentLimits:
    per_attachment: int = DEFAULT_MAX_ATTACHMENT_BYTES
    per_run: int = DEFAULT_MAX_RUN_ATTACHMENT_BYTES


def check_attachments(provider: Provider, attachments: Sequence[Attachment], limits: AttachmentLimits) -> None:
    """Refuse the first attachment the instance or the host does not take; return when all are fine."""
    accepted = provider.capabilities.attachment_media_types
    total = 0
    for index, attachment in enumerate(attachments):
        where = f"Attachment {index} ({attachment.name!r}, {attachment.mediaType})"
        if not accepts_media_type(accepted, attachment.mediaType):
            raise _refused(
                provider,
                index,
                attachment,
                f"{where}: provider {provider.id!r} does not take this type; it takes {', '.join(accepted)}.",
            )
        size = _decoded_size(attachment, index)
        total += size
        if size > limits.per_attachment:
            detail = f"{where} is {size} bytes; this host takes at most {limits.per_attachment} per attachment."
            raise _refused(
                provider, index, attachment, detail, limit="maxAttachmentBytes", maximum=limits.per_attachment
            )
        if total > limits.per_run:
            detail = (
                f"{where} brings the run's attachments to {total} bytes; this host takes at most "
                f"{limits.per_run} per run."
            )
            raise _refused(provider, index, attachment, detail, limit="maxRunAttachmentBytes", maximum=limits.per_run)


def _refused(
    provider: Provider,
    index: int,
    attachment: Attachment,
    detail: str,
    *,
    limit: str | None = None,
    maximum: int | None = None,
) -> AttachmentUnsupported:
    return AttachmentUnsupported(
        detail,
        provider=provider.id,
        media_type=attachment.mediaType,
        attachment=index,
        limit=limit,
        maximum=maximum,
    )


def _decoded_size(attachment: Attachment, index: int) -> int:
    try:
        return len(base64.b64decode(attachment.data, validate=True))
    except (binascii.Error, ValueError):
        raise ValidationFailed(
            f"Attachment {index} ({attachment.name!r}) is not base64-encoded.",
            errors=[{"location": f"body.attachments.{index}.data", "message": "not base64 (RFC 4648, no line breaks)"}],
        ) from None
