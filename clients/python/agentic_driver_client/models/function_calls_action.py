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


T = TypeVar("T", bound="FunctionCallsAction")


@_attrs_define
class FunctionCallsAction:
    """The model called application-owned functions; submit their results.

    Attributes:
        type_ (Literal['function_calls']):
        calls (list[FunctionCall]):
    """

    type_: Literal["function_calls"]
    calls: list[FunctionCall]

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        calls = []
        for calls_item_data in self.calls:
            calls_item = calls_item_data.to_dict()
            calls.append(calls_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "calls": calls,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.function_call import FunctionCall

        d = dict(src_dict)
        type_ = cast(Literal["function_calls"], d.pop("type"))
        if type_ != "function_calls":
            raise ValueError(f"type must match const 'function_calls', got '{type_}'")

        calls = []
        _calls = d.pop("calls")
        for calls_item_data in _calls:
            calls_item = FunctionCall.from_dict(calls_item_data)

            calls.append(calls_item)

        function_calls_action = cls(
            type_=type_,
            calls=calls,
        )

        return function_calls_action
