# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

T = TypeVar("T", bound="OutputDeltaEvent")


@_attrs_define
class OutputDeltaEvent:
    """The next piece of the assistant's visible text.

    Attributes:
        type_ (Literal['output.delta']):
        run_id (str):
        text (str):
    """

    type_: Literal["output.delta"]
    run_id: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        run_id = self.run_id

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "runId": run_id,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["output.delta"], d.pop("type"))
        if type_ != "output.delta":
            raise ValueError(f"type must match const 'output.delta', got '{type_}'")

        run_id = d.pop("runId")

        text = d.pop("text")

        output_delta_event = cls(
            type_=type_,
            run_id=run_id,
            text=text,
        )

        return output_delta_event
