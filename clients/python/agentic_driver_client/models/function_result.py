# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="FunctionResult")


@_attrs_define
class FunctionResult:
    """
    Attributes:
        call_id (str): The call this answers.
        output (str): The function's result as text (JSON text is fine), given to the model.
    """

    call_id: str
    output: str

    def to_dict(self) -> dict[str, Any]:
        call_id = self.call_id

        output = self.output

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "callId": call_id,
                "output": output,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        call_id = d.pop("callId")

        output = d.pop("output")

        function_result = cls(
            call_id=call_id,
            output=output,
        )

        return function_result
