# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Attachment")


@_attrs_define
class Attachment:
    """A file sent with a stateless run. Text (`text/*`, JSON, XML) goes to
    the model decoded, beside the input; images (`image/png`, `image/jpeg`,
    `image/webp`, `image/gif`) and PDFs (`application/pdf`) go in the
    provider's own form, where the instance lists the type in discovery's
    `attachmentMediaTypes`. The host bounds each attachment's decoded size
    (`maxAttachmentBytes`) and a run's (`maxRunAttachmentBytes`).

        Attributes:
            name (str): The file name.
            media_type (str): The IANA media type, for example `text/plain` or `image/png`.
            data (str): The file content, base64-encoded.
    """

    name: str
    media_type: str
    data: str

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        media_type = self.media_type

        data = self.data

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "mediaType": media_type,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        media_type = d.pop("mediaType")

        data = d.pop("data")

        attachment = cls(
            name=name,
            media_type=media_type,
            data=data,
        )

        return attachment
