# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ValidationIssue")


@_attrs_define
class ValidationIssue:
    """
    Attributes:
        location (str): Where in the request the problem is, for example `body.session.revision`.
        message (str): What is wrong there.
    """

    location: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        location = self.location

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "location": location,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        location = d.pop("location")

        message = d.pop("message")

        validation_issue = cls(
            location=location,
            message=message,
        )

        return validation_issue
