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
    from ..models.run_result import RunResult


T = TypeVar("T", bound="RunRequiresActionEvent")


@_attrs_define
class RunRequiresActionEvent:
    """The run waits for the application; the stream ends here.

    Attributes:
        type_ (Literal['run.requires_action']):
        run (RunResult):
    """

    type_: Literal["run.requires_action"]
    run: RunResult

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        run = self.run.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "run": run,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.run_result import RunResult

        d = dict(src_dict)
        type_ = cast(Literal["run.requires_action"], d.pop("type"))
        if type_ != "run.requires_action":
            raise ValueError(
                f"type must match const 'run.requires_action', got '{type_}'"
            )

        run = RunResult.from_dict(d.pop("run"))

        run_requires_action_event = cls(
            type_=type_,
            run=run,
        )

        return run_requires_action_event
