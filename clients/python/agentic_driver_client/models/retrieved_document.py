# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="RetrievedDocument")


@_attrs_define
class RetrievedDocument:
    """
    Attributes:
        id (str): The application's id for the source.
        text (str): The retrieved text.
    """

    id: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        text = d.pop("text")

        retrieved_document = cls(
            id=id,
            text=text,
        )

        return retrieved_document
