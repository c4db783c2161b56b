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


T = TypeVar("T", bound="CancelRunResponse")


@_attrs_define
class CancelRunResponse:
    """
    Attributes:
        id (str): The cancelled run.
        status (Literal['cancelled']): Always `cancelled`.
        model_work_started (bool): Whether model work had started; if so, the session is now interrupted.
        session (SessionInfo | Unset):
    """

    id: str
    status: Literal["cancelled"]
    model_work_started: bool
    session: SessionInfo | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status

        model_work_started = self.model_work_started

        session: dict[str, Any] | Unset = UNSET
        if not isinstance(self.session, Unset):
            session = self.session.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "status": status,
                "modelWorkStarted": model_work_started,
            }
        )
        if session is not UNSET:
            field_dict["session"] = session

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.session_info import SessionInfo

        d = dict(src_dict)
        id = d.pop("id")

        status = cast(Literal["cancelled"], d.pop("status"))
        if status != "cancelled":
            raise ValueError(f"status must match const 'cancelled', got '{status}'")

        model_work_started = d.pop("modelWorkStarted")

        _session = d.pop("session", UNSET)
        session: SessionInfo | Unset
        if isinstance(_session, Unset):
            session = UNSET
        else:
            session = SessionInfo.from_dict(_session)

        cancel_run_response = cls(
            id=id,
            status=status,
            model_work_started=model_work_started,
            session=session,
        )

        return cancel_run_response
