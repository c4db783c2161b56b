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

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.session_info import SessionInfo


T = TypeVar("T", bound="RunStartedEvent")


@_attrs_define
class RunStartedEvent:
    """The run was admitted; a session run carries the session (status `running`).

    Attributes:
        type_ (Literal['run.started']):
        run_id (str):
        session (SessionInfo | Unset):
    """

    type_: Literal["run.started"]
    run_id: str
    session: SessionInfo | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        run_id = self.run_id

        session: dict[str, Any] | Unset = UNSET
        if not isinstance(self.session, Unset):
            session = self.session.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "runId": run_id,
            }
        )
        if session is not UNSET:
            field_dict["session"] = session

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.session_info import SessionInfo

        d = dict(src_dict)
        type_ = cast(Literal["run.started"], d.pop("type"))
        if type_ != "run.started":
            raise ValueError(f"type must match const 'run.started', got '{type_}'")

        run_id = d.pop("runId")

        _session = d.pop("session", UNSET)
        session: SessionInfo | Unset
        if isinstance(_session, Unset):
            session = UNSET
        else:
            session = SessionInfo.from_dict(_session)

        run_started_event = cls(
            type_=type_,
            run_id=run_id,
            session=session,
        )

        return run_started_event
