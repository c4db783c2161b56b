# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.on_disconnect import OnDisconnect
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.approval_decision import ApprovalDecision
    from ..models.function_result import FunctionResult


T = TypeVar("T", bound="SubmitRunActionsRequest")


@_attrs_define
class SubmitRunActionsRequest:
    """Exactly one of `functionResults` or `approvals`, matching the run's
    `requiredAction`, and optionally `onDisconnect` for the rest of the run.
    A body with both answers, or with neither, is `VALIDATION_ERROR`.

        Attributes:
            function_results (list[FunctionResult] | Unset):
            approvals (list[ApprovalDecision] | Unset):
            on_disconnect (OnDisconnect | Unset): What the run does when the client answering it goes away (its
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
    """

    function_results: list[FunctionResult] | Unset = UNSET
    approvals: list[ApprovalDecision] | Unset = UNSET
    on_disconnect: OnDisconnect | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        function_results: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.function_results, Unset):
            function_results = []
            for function_results_item_data in self.function_results:
                function_results_item = function_results_item_data.to_dict()
                function_results.append(function_results_item)

        approvals: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.approvals, Unset):
            approvals = []
            for approvals_item_data in self.approvals:
                approvals_item = approvals_item_data.to_dict()
                approvals.append(approvals_item)

        on_disconnect: str | Unset = UNSET
        if not isinstance(self.on_disconnect, Unset):
            on_disconnect = self.on_disconnect.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if function_results is not UNSET:
            field_dict["functionResults"] = function_results
        if approvals is not UNSET:
            field_dict["approvals"] = approvals
        if on_disconnect is not UNSET:
            field_dict["onDisconnect"] = on_disconnect

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.approval_decision import ApprovalDecision
        from ..models.function_result import FunctionResult

        d = dict(src_dict)
        _function_results = d.pop("functionResults", UNSET)
        function_results: list[FunctionResult] | Unset = UNSET
        if _function_results is not UNSET:
            function_results = []
            for function_results_item_data in _function_results:
                function_results_item = FunctionResult.from_dict(
                    function_results_item_data
                )

                function_results.append(function_results_item)

        _approvals = d.pop("approvals", UNSET)
        approvals: list[ApprovalDecision] | Unset = UNSET
        if _approvals is not UNSET:
            approvals = []
            for approvals_item_data in _approvals:
                approvals_item = ApprovalDecision.from_dict(approvals_item_data)

                approvals.append(approvals_item)

        _on_disconnect = d.pop("onDisconnect", UNSET)
        on_disconnect: OnDisconnect | Unset
        if isinstance(_on_disconnect, Unset):
            on_disconnect = UNSET
        else:
            on_disconnect = OnDisconnect(_on_disconnect)

        submit_run_actions_request = cls(
            function_results=function_results,
            approvals=approvals,
            on_disconnect=on_disconnect,
        )

        return submit_run_actions_request
