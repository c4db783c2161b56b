# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.session_info import SessionInfo


T = TypeVar("T", bound="CreateSessionResponse")


@_attrs_define
class CreateSessionResponse:
    """
    Attributes:
        session (SessionInfo):
    """

    session: SessionInfo

    def to_dict(self) -> dict[str, Any]:
        session = self.session.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "session": session,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.session_info import SessionInfo

        d = dict(src_dict)
        session = SessionInfo.from_dict(d.pop("session"))

        create_session_response = cls(
            session=session,
        )

        return create_session_response
