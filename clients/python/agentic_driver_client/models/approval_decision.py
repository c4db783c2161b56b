# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ApprovalDecision")


@_attrs_define
class ApprovalDecision:
    """
    Attributes:
        call_id (str): The call this decides.
        approve (bool): Approved, the host runs the tool; denied, the model is told so.
        reason (str | Unset): Why, passed to the model with a denial.
    """

    call_id: str
    approve: bool
    reason: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        call_id = self.call_id

        approve = self.approve

        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "callId": call_id,
                "approve": approve,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        call_id = d.pop("callId")

        approve = d.pop("approve")

        reason = d.pop("reason", UNSET)

        approval_decision = cls(
            call_id=call_id,
            approve=approve,
            reason=reason,
        )

        return approval_decision
