# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.interrupt_reason import InterruptReason

T = TypeVar("T", bound="InterruptedTurn")


@_attrs_define
class InterruptedTurn:
    """The turn that interrupted the session, for the application to reconcile.

    Attributes:
        run_id (str): The interrupted run.
        input_ (str): The input the interrupted turn was given.
        reason (InterruptReason): Why a turn stopped after model work started. `action_timeout`: the
            run's `actionTimeoutMs` passed with its required action unanswered.
        at (datetime.datetime): When the turn was interrupted.
    """

    run_id: str
    input_: str
    reason: InterruptReason
    at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        run_id = self.run_id

        input_ = self.input_

        reason = self.reason.value

        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "runId": run_id,
                "input": input_,
                "reason": reason,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        run_id = d.pop("runId")

        input_ = d.pop("input")

        reason = InterruptReason(d.pop("reason"))

        at = datetime.datetime.fromisoformat(d.pop("at"))

        interrupted_turn = cls(
            run_id=run_id,
            input_=input_,
            reason=reason,
            at=at,
        )

        return interrupted_turn
