# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.tool_definition_parameters import ToolDefinitionParameters


T = TypeVar("T", bound="ToolDefinition")


@_attrs_define
class ToolDefinition:
    """An application-owned function the model may call.

    Attributes:
        name (str): The function's name, unique within the run.
        parameters (ToolDefinitionParameters): A JSON Schema for the function's arguments.
        description (str | Unset): What the function does, for the model.
    """

    name: str
    parameters: ToolDefinitionParameters
    description: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        parameters = self.parameters.to_dict()

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "parameters": parameters,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.tool_definition_parameters import ToolDefinitionParameters

        d = dict(src_dict)
        name = d.pop("name")

        parameters = ToolDefinitionParameters.from_dict(d.pop("parameters"))

        description = d.pop("description", UNSET)

        tool_definition = cls(
            name=name,
            parameters=parameters,
            description=description,
        )

        return tool_definition
