# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.on_disconnect import OnDisconnect
from ..models.run_state_status import RunStateStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.problem import Problem
    from ..models.run_result import RunResult
    from ..models.session_info import SessionInfo


T = TypeVar("T", bound="RunState")


@_attrs_define
class RunState:
    """A run as the host knows it now (`getRun`). `result` is present once
    the run completed or paused (`completed`, `requires_action`);
    `problem` once it failed or was cancelled (`failed`, `cancelled`),
    with the code its own request answered or would have answered with.

        Attributes:
            id (str): The run id.
            status (RunStateStatus): `queued`: admitted, waiting for a run slot. `running`: model work
                under way (or host tools answering). `requires_action`: paused for
                function results or approvals. `completed`, `failed`, `cancelled`:
                ended (a cancellation from outside, a disconnect of a `cancel` run,
                a deleted session, the host's drain, or an unanswered action).
            on_disconnect (OnDisconnect): What the run does when the client answering it goes away (its
                connection closes before the answer or the stream's last event):
                `cancel` (the default) stops the run; a session turn whose model work
                had started is then `interrupted` (reason `disconnected`), before
                that the session stays `ready`. `continue` lets the run go on to its
                end (completed, failed, or paused for function results or approvals)
                as if the client had stayed: the session stays busy meanwhile and
                advances when the turn completes. Rejoin it with `streamRunEvents`,
                read its outcome with `getRun`, or retry the request with the same
                `Idempotency-Key`. Absent from a run, it is `cancel`; sent with
                `submitRunActions`, it applies from that answer on, and absent there
                the run keeps the value it had.
            first_event_id (int): The oldest of the run's events still buffered (`Last-Event-ID` below it is
                `RUN_EVENTS_EXPIRED`).
            last_event_id (int): The id of the run's latest event (its `run.started` is 1).
            session (SessionInfo | Unset):
            result (RunResult | Unset):
            problem (Problem | Unset): RFC 9457 problem details with a stable `code`. Code-specific fields
                appear only with the codes that use them.
    """

    id: str
    status: RunStateStatus
    on_disconnect: OnDisconnect
    first_event_id: int
    last_event_id: int
    session: SessionInfo | Unset = UNSET
    result: RunResult | Unset = UNSET
    problem: Problem | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status.value

        on_disconnect = self.on_disconnect.value

        first_event_id = self.first_event_id

        last_event_id = self.last_event_id

        session: dict[str, Any] | Unset = UNSET
        if not isinstance(self.session, Unset):
            session = self.session.to_dict()

        result: dict[str, Any] | Unset = UNSET
        if not isinstance(self.result, Unset):
            result = self.result.to_dict()

        problem: dict[str, Any] | Unset = UNSET
        if not isinstance(self.problem, Unset):
            problem = self.problem.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "status": status,
                "onDisconnect": on_disconnect,
                "firstEventId": first_event_id,
                "lastEventId": last_event_id,
            }
        )
        if session is not UNSET:
            field_dict["session"] = session
        if result is not UNSET:
            field_dict["result"] = result
        if problem is not UNSET:
            field_dict["problem"] = problem

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.problem import Problem
        from ..models.run_result import RunResult
        from ..models.session_info import SessionInfo

        d = dict(src_dict)
        id = d.pop("id")

        status = RunStateStatus(d.pop("status"))

        on_disconnect = OnDisconnect(d.pop("onDisconnect"))

        first_event_id = d.pop("firstEventId")

        last_event_id = d.pop("lastEventId")

        _session = d.pop("session", UNSET)
        session: SessionInfo | Unset
        if isinstance(_session, Unset):
            session = UNSET
        else:
            session = SessionInfo.from_dict(_session)

        _result = d.pop("result", UNSET)
        result: RunResult | Unset
        if isinstance(_result, Unset):
            result = UNSET
        else:
            result = RunResult.from_dict(_result)

        _problem = d.pop("problem", UNSET)
        problem: Problem | Unset
        if isinstance(_problem, Unset):
            problem = UNSET
        else:
            problem = Problem.from_dict(_problem)

        run_state = cls(
            id=id,
            status=status,
            on_disconnect=on_disconnect,
            first_event_id=first_event_id,
            last_event_id=last_event_id,
            session=session,
            result=result,
            problem=problem,
        )

        return run_state
