# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SessionHandle")


@_attrs_define
class SessionHandle:
    """Copy exactly these two fields from the last `SessionInfo` into the next run.

    Attributes:
        id (str): The session id (`SessionInfo.id`); a client sends `Agentic-Host` with the host it names.
        revision (int): The revision the caller believes is current (at most 2^53 - 1, which every JSON client
            represents exactly).
    """

    id: str
    revision: int

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        revision = self.revision

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "revision": revision,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        revision = d.pop("revision")

        session_handle = cls(
            id=id,
            revision=revision,
        )

        return session_handle
