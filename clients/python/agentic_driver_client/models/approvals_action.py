# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.function_call import FunctionCall


T = TypeVar("T", bound="ApprovalsAction")


@_attrs_define
class ApprovalsAction:
    """The model called host tools that need a person's approval before they act.

    Attributes:
        type_ (Literal['approvals']):
        approvals (list[FunctionCall]):
    """

    type_: Literal["approvals"]
    approvals: list[FunctionCall]

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        approvals = []
        for approvals_item_data in self.approvals:
            approvals_item = approvals_item_data.to_dict()
            approvals.append(approvals_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "approvals": approvals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.function_call import FunctionCall

        d = dict(src_dict)
        type_ = cast(Literal["approvals"], d.pop("type"))
        if type_ != "approvals":
            raise ValueError(f"type must match const 'approvals', got '{type_}'")

        approvals = []
        _approvals = d.pop("approvals")
        for approvals_item_data in _approvals:
            approvals_item = FunctionCall.from_dict(approvals_item_data)

            approvals.append(approvals_item)

        approvals_action = cls(
            type_=type_,
            approvals=approvals,
        )

        return approvals_action
