# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.run_status import RunStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.run_output import RunOutput
    from ..models.session_info import SessionInfo
    from ..models.usage import Usage


T = TypeVar("T", bound="RunResult")


@_attrs_define
class RunResult:
    """
    Attributes:
        id (str): The run id.
        status (RunStatus): `completed`: the turn finished and `output` holds the reply.
            `requires_action` is reserved for runs that wait for the application
            (functions and approvals); this version of the host does not produce it.
        output (RunOutput):
        usage (Usage):
        session (SessionInfo | Unset):
    """

    id: str
    status: RunStatus
    output: RunOutput
    usage: Usage
    session: SessionInfo | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status.value

        output = self.output.to_dict()

        usage = self.usage.to_dict()

        session: dict[str, Any] | Unset = UNSET
        if not isinstance(self.session, Unset):
            session = self.session.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "status": status,
                "output": output,
                "usage": usage,
            }
        )
        if session is not UNSET:
            field_dict["session"] = session

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.run_output import RunOutput
        from ..models.session_info import SessionInfo
        from ..models.usage import Usage

        d = dict(src_dict)
        id = d.pop("id")

        status = RunStatus(d.pop("status"))

        output = RunOutput.from_dict(d.pop("output"))

        usage = Usage.from_dict(d.pop("usage"))

        _session = d.pop("session", UNSET)
        session: SessionInfo | Unset
        if isinstance(_session, Unset):
            session = UNSET
        else:
            session = SessionInfo.from_dict(_session)

        run_result = cls(
            id=id,
            status=status,
            output=output,
            usage=usage,
            session=session,
        )

        return run_result
