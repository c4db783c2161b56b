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
    from ..models.problem import Problem


T = TypeVar("T", bound="RunFailedEvent")


@_attrs_define
class RunFailedEvent:
    """The run failed or was cancelled after the stream started; `problem`
    says why, with the code the non-streamed operation would answer with:
    `RUN_CANCELLED`, `SESSION_LIMIT_EXCEEDED`, `PROVIDER_TIMEOUT`, or a
    provider failure (`PROVIDER_RATE_LIMITED`, `PROVIDER_OVERLOADED`,
    `PROVIDER_AUTH_FAILED`, `PROVIDER_REJECTED`, `PROVIDER_ERROR`, with
    `retryAfterSeconds` where the provider said when to retry).

        Attributes:
            type_ (Literal['run.failed']):
            run_id (str):
            problem (Problem): RFC 9457 problem details with a stable `code`. Code-specific fields
                appear only with the codes that use them.
    """

    type_: Literal["run.failed"]
    run_id: str
    problem: Problem

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        run_id = self.run_id

        problem = self.problem.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "runId": run_id,
                "problem": problem,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.problem import Problem

        d = dict(src_dict)
        type_ = cast(Literal["run.failed"], d.pop("type"))
        if type_ != "run.failed":
            raise ValueError(f"type must match const 'run.failed', got '{type_}'")

        run_id = d.pop("runId")

        problem = Problem.from_dict(d.pop("problem"))

        run_failed_event = cls(
            type_=type_,
            run_id=run_id,
            problem=problem,
        )

        return run_failed_event
