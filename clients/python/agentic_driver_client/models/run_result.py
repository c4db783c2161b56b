# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.run_status import RunStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.approvals_action import ApprovalsAction
    from ..models.function_calls_action import FunctionCallsAction
    from ..models.retry_accounting import RetryAccounting
    from ..models.run_output import RunOutput
    from ..models.session_info import SessionInfo
    from ..models.usage import Usage


T = TypeVar("T", bound="RunResult")


@_attrs_define
class RunResult:
    """
    Attributes:
        id (str): The run id, `run_{hostId}.{random}` (the host part as in `SessionInfo.id`).
        status (RunStatus): `completed`: the turn finished and `output` holds the reply.
            `requires_action`: the turn waits for the application (`requiredAction`
            says for what); it is still the session's active turn.
        output (RunOutput):
        usage (Usage): Token counts summed over the run's provider calls, normalised across
            providers whatever each one counts: `inputTokens` includes cached input
            and cache writes, `outputTokens` includes reasoning.
        cost (float | None): This run's cost when the host has prices for the model, else null (never a guess).
        retries (RetryAccounting): Provider attempts that failed and were retried, and what they consumed (already
            billed).
        served_model (None | str): The model that answered, as the provider reported it.
        required_action (ApprovalsAction | FunctionCallsAction | Unset): What a `requires_action` run waits for.
        session (SessionInfo | Unset):
    """

    id: str
    status: RunStatus
    output: RunOutput
    usage: Usage
    cost: float | None
    retries: RetryAccounting
    served_model: None | str
    required_action: ApprovalsAction | FunctionCallsAction | Unset = UNSET
    session: SessionInfo | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.function_calls_action import FunctionCallsAction

        id = self.id

        status = self.status.value

        output = self.output.to_dict()

        usage = self.usage.to_dict()

        cost: float | None
        cost = self.cost

        retries = self.retries.to_dict()

        served_model: None | str
        served_model = self.served_model

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
                "cost": cost,
                "retries": retries,
                "servedModel": served_model,
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
        from ..models.retry_accounting import RetryAccounting
        from ..models.run_output import RunOutput
        from ..models.session_info import SessionInfo
        from ..models.usage import Usage

        d = dict(src_dict)
        id = d.pop("id")

        status = RunStatus(d.pop("status"))

        output = RunOutput.from_dict(d.pop("output"))

        usage = Usage.from_dict(d.pop("usage"))

        def _parse_cost(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        cost = _parse_cost(d.pop("cost"))

        retries = RetryAccounting.from_dict(d.pop("retries"))

        def _parse_served_model(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        served_model = _parse_served_model(d.pop("servedModel"))

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
            cost=cost,
            retries=retries,
            served_model=served_model,
            required_action=required_action,
            session=session,
        )

        return run_result
