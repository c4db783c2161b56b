# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.function_call_arguments import FunctionCallArguments


T = TypeVar("T", bound="FunctionCall")


@_attrs_define
class FunctionCall:
    """
    Attributes:
        call_id (str): The id to answer with.
        name (str): The function or host tool the model called.
        arguments (FunctionCallArguments): The arguments the model gave, as a JSON object.
    """

    call_id: str
    name: str
    arguments: FunctionCallArguments

    def to_dict(self) -> dict[str, Any]:
        call_id = self.call_id

        name = self.name

        arguments = self.arguments.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "callId": call_id,
                "name": name,
                "arguments": arguments,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.function_call_arguments import FunctionCallArguments

        d = dict(src_dict)
        call_id = d.pop("callId")

        name = d.pop("name")

        arguments = FunctionCallArguments.from_dict(d.pop("arguments"))

        function_call = cls(
            call_id=call_id,
            name=name,
            arguments=arguments,
        )

        return function_call
