# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.retrieved_document import RetrievedDocument


T = TypeVar("T", bound="Retrieval")


@_attrs_define
class Retrieval:
    """Freshly authorized context for a stateless run.

    Attributes:
        documents (list[RetrievedDocument]):
    """

    documents: list[RetrievedDocument]

    def to_dict(self) -> dict[str, Any]:
        documents = []
        for documents_item_data in self.documents:
            documents_item = documents_item_data.to_dict()
            documents.append(documents_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "documents": documents,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.retrieved_document import RetrievedDocument

        d = dict(src_dict)
        documents = []
        _documents = d.pop("documents")
        for documents_item_data in _documents:
            documents_item = RetrievedDocument.from_dict(documents_item_data)

            documents.append(documents_item)

        retrieval = cls(
            documents=documents,
        )

        return retrieval
