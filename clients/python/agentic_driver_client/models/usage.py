# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Usage")


@_attrs_define
class Usage:
    """
    Attributes:
        input_tokens (int): Tokens the model read.
        output_tokens (int): Tokens the model wrote.
    """

    input_tokens: int
    output_tokens: int

    def to_dict(self) -> dict[str, Any]:
        input_tokens = self.input_tokens

        output_tokens = self.output_tokens

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "inputTokens": input_tokens,
                "outputTokens": output_tokens,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        input_tokens = d.pop("inputTokens")

        output_tokens = d.pop("outputTokens")

        usage = cls(
            input_tokens=input_tokens,
            output_tokens=output_tokens,
        )

        return usage
