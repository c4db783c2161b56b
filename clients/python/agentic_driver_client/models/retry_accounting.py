# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="RetryAccounting")


@_attrs_define
class RetryAccounting:
    """Provider attempts that failed and were retried, and what they consumed (already billed).

    Attributes:
        count (int):
        input_tokens (int):
        output_tokens (int):
        cost (float | None): Their cost when the host has prices for the model, else null.
    """

    count: int
    input_tokens: int
    output_tokens: int
    cost: float | None

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        input_tokens = self.input_tokens

        output_tokens = self.output_tokens

        cost: float | None
        cost = self.cost

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "count": count,
                "inputTokens": input_tokens,
                "outputTokens": output_tokens,
                "cost": cost,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        count = d.pop("count")

        input_tokens = d.pop("inputTokens")

        output_tokens = d.pop("outputTokens")

        def _parse_cost(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        cost = _parse_cost(d.pop("cost"))

        retry_accounting = cls(
            count=count,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cost=cost,
        )

        return retry_accounting
