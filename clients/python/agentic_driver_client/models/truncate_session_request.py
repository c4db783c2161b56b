# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TruncateSessionRequest")


@_attrs_define
class TruncateSessionRequest:
    """
    Attributes:
        revision (int): The revision the caller believes is current.
        keep_turns (int): How many of the first recorded turns to keep (0 keeps only the imported history).
    """

    revision: int
    keep_turns: int

    def to_dict(self) -> dict[str, Any]:
        revision = self.revision

        keep_turns = self.keep_turns

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "revision": revision,
                "keepTurns": keep_turns,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        revision = d.pop("revision")

        keep_turns = d.pop("keepTurns")

        truncate_session_request = cls(
            revision=revision,
            keep_turns=keep_turns,
        )

        return truncate_session_request
