# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Turn")


@_attrs_define
class Turn:
    """One completed turn still in the history; `history[start:end]` is what it added.

    Attributes:
        revision (int): The revision the turn produced.
        run_id (str): The run that produced it.
        start (int): Index of the turn's first message in `history`.
        end (int): Index one past the turn's last message in `history`.
        at (datetime.datetime): When the turn completed.
    """

    revision: int
    run_id: str
    start: int
    end: int
    at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        revision = self.revision

        run_id = self.run_id

        start = self.start

        end = self.end

        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "revision": revision,
                "runId": run_id,
                "start": start,
                "end": end,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        revision = d.pop("revision")

        run_id = d.pop("runId")

        start = d.pop("start")

        end = d.pop("end")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        turn = cls(
            revision=revision,
            run_id=run_id,
            start=start,
            end=end,
            at=at,
        )

        return turn
