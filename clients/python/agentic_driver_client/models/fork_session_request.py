# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ForkSessionRequest")


@_attrs_define
class ForkSessionRequest:
    """
    Attributes:
        revision (int | Unset): The boundary: 0 (the imported history only), the session's current
            revision, or the revision of one of its recorded turns. Default:
            the current revision.
    """

    revision: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        revision = self.revision

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if revision is not UNSET:
            field_dict["revision"] = revision

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        revision = d.pop("revision", UNSET)

        fork_session_request = cls(
            revision=revision,
        )

        return fork_session_request
