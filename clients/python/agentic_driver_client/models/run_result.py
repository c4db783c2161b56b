# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.run_status import RunStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.approvals_action import ApprovalsAction
    from ..models.function_calls_action import FunctionCallsAction
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
            `requires_action`: the turn waits for the application (`requiredAction`
            says for what); it is still the session's active turn.
        output (RunOutput):
        usage (Usage): Token counts summed over the run's provider calls, normalised across
            providers whatever each one counts: `inputTokens` includes cached input
            and cache writes, `outputTokens` includes reasoning.
        required_action (ApprovalsAction | FunctionCallsAction | Unset): What a `requires_action` run waits for.
        session (SessionInfo | Unset):
    """

    id: str
    status: RunStatus
    output: RunOutput
    usage: Usage
    required_action: ApprovalsAction | FunctionCallsAction | Unset = UNSET
    session: SessionInfo | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.function_calls_action import FunctionCallsAction

        id = self.id

        status = self.status.value

        output = self.output.to_dict()

        usage = self.usage.to_dict()

        required_action: dict[str, Any] | Unset
        if isinstance(self.required_action, Unset):
            required_action = UNSET
        elif isinstance(self.required_action, FunctionCallsAction):
            required_action = self.required_action.to_dict()
        else:
            required_action = self.required_action.to_dict()

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
        if required_action is not UNSET:
            field_dict["requiredAction"] = required_action
        if session is not UNSET:
            field_dict["session"] = session

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.approvals_action import ApprovalsAction
        from ..models.function_calls_action import FunctionCallsAction
        from ..models.run_output import RunOutput
        from ..models.session_info import SessionInfo
        from ..models.usage import Usage

        d = dict(src_dict)
        id = d.pop("id")

        status = RunStatus(d.pop("status"))

        output = RunOutput.from_dict(d.pop("output"))

        usage = Usage.from_dict(d.pop("usage"))

        def _parse_required_action(
            data: object,
        ) -> ApprovalsAction | FunctionCallsAction | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_required_action_type_0 = (
                    FunctionCallsAction.from_dict(data)
                )

                return componentsschemas_required_action_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_required_action_type_1 = ApprovalsAction.from_dict(data)

            return componentsschemas_required_action_type_1

        required_action = _parse_required_action(d.pop("requiredAction", UNSET))

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
            required_action=required_action,
            session=session,
        )

        return run_result
