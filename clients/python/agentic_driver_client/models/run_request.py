# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.on_disconnect import OnDisconnect
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attachment import Attachment
    from ..models.message import Message
    from ..models.retrieval import Retrieval
    from ..models.session_handle import SessionHandle
    from ..models.tool_definition import ToolDefinition


T = TypeVar("T", bound="RunRequest")


@_attrs_define
class RunRequest:
    """A stateless run (no `session`) or a session run. A session run owns
    neither instructions nor history (`SESSION_OVERRIDE_REJECTED`) and takes
    no attachments or retrieval (`SESSION_CONTEXT_UNSUPPORTED`); the
    `dependentSchemas` below state exactly that.

        Attributes:
            provider (str): The provider instance id; for a session run, the session's provider.
            model (str): The model; for a session run, the session's model.
            input_ (str): The new user input.
            instructions (str | Unset): Stateless runs only.
            history (list[Message] | Unset): Stateless runs only; the earlier visible conversation.
            attachments (list[Attachment] | Unset): Stateless runs only.
            retrieval (Retrieval | Unset): Freshly authorized context for a stateless run.
            session (SessionHandle | Unset): Copy exactly these two fields from the last `SessionInfo` into the next run.
            tools (list[ToolDefinition] | Unset): Application-owned functions the model may call. A call ends the run
                in `requires_action` until `submitRunActions` brings the results.
                Names must differ from each other and from the host's own tools.
            idle_timeout_ms (int | Unset): Opt-in progress timeout: if the provider makes no progress for this
                long, the run fails with `PROVIDER_TIMEOUT` (a session turn leaves
                the session interrupted). There is never a total run deadline.
            action_timeout_ms (int | Unset): Opt-in bound on each wait for the application: if a required
                action (function results or approvals) is not answered this long,
                the run ends as cancelled (`RUN_CANCELLED`, reason
                `action_timeout`); a session turn had started model work, so the
                session is interrupted and its interrupted turn records reason
                `action_timeout`. Without it a paused run waits until it is
                answered, cancelled or deleted (session retention stays suspended
                meanwhile). Separate from the host's `maxWaitingRuns`, which bounds
                how many runs may wait at once.
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

    provider: str
    model: str
    input_: str
    instructions: str | Unset = UNSET
    history: list[Message] | Unset = UNSET
    attachments: list[Attachment] | Unset = UNSET
    retrieval: Retrieval | Unset = UNSET
    session: SessionHandle | Unset = UNSET
    tools: list[ToolDefinition] | Unset = UNSET
    idle_timeout_ms: int | Unset = UNSET
    action_timeout_ms: int | Unset = UNSET
    on_disconnect: OnDisconnect | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        provider = self.provider

        model = self.model

        input_ = self.input_

        instructions = self.instructions

        history: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.history, Unset):
            history = []
            for history_item_data in self.history:
                history_item = history_item_data.to_dict()
                history.append(history_item)

        attachments: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.attachments, Unset):
            attachments = []
            for attachments_item_data in self.attachments:
                attachments_item = attachments_item_data.to_dict()
                attachments.append(attachments_item)

        retrieval: dict[str, Any] | Unset = UNSET
        if not isinstance(self.retrieval, Unset):
            retrieval = self.retrieval.to_dict()

        session: dict[str, Any] | Unset = UNSET
        if not isinstance(self.session, Unset):
            session = self.session.to_dict()

        tools: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.tools, Unset):
            tools = []
            for tools_item_data in self.tools:
                tools_item = tools_item_data.to_dict()
                tools.append(tools_item)

        idle_timeout_ms = self.idle_timeout_ms

        action_timeout_ms = self.action_timeout_ms

        on_disconnect: str | Unset = UNSET
        if not isinstance(self.on_disconnect, Unset):
            on_disconnect = self.on_disconnect.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "provider": provider,
                "model": model,
                "input": input_,
            }
        )
        if instructions is not UNSET:
            field_dict["instructions"] = instructions
        if history is not UNSET:
            field_dict["history"] = history
        if attachments is not UNSET:
            field_dict["attachments"] = attachments
        if retrieval is not UNSET:
            field_dict["retrieval"] = retrieval
        if session is not UNSET:
            field_dict["session"] = session
        if tools is not UNSET:
            field_dict["tools"] = tools
        if idle_timeout_ms is not UNSET:
            field_dict["idleTimeoutMs"] = idle_timeout_ms
        if action_timeout_ms is not UNSET:
            field_dict["actionTimeoutMs"] = action_timeout_ms
        if on_disconnect is not UNSET:
            field_dict["onDisconnect"] = on_disconnect

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.attachment import Attachment
        from ..models.message import Message
        from ..models.retrieval import Retrieval
        from ..models.session_handle import SessionHandle
        from ..models.tool_definition import ToolDefinition

        d = dict(src_dict)
        provider = d.pop("provider")

        model = d.pop("model")

        input_ = d.pop("input")

        instructions = d.pop("instructions", UNSET)

        _history = d.pop("history", UNSET)
        history: list[Message] | Unset = UNSET
        if _history is not UNSET:
            history = []
            for history_item_data in _history:
                history_item = Message.from_dict(history_item_data)

                history.append(history_item)

        _attachments = d.pop("attachments", UNSET)
        attachments: list[Attachment] | Unset = UNSET
        if _attachments is not UNSET:
            attachments = []
            for attachments_item_data in _attachments:
                attachments_item = Attachment.from_dict(attachments_item_data)

                attachments.append(attachments_item)

        _retrieval = d.pop("retrieval", UNSET)
        retrieval: Retrieval | Unset
        if isinstance(_retrieval, Unset):
            retrieval = UNSET
        else:
            retrieval = Retrieval.from_dict(_retrieval)

        _session = d.pop("session", UNSET)
        session: SessionHandle | Unset
        if isinstance(_session, Unset):
            session = UNSET
        else:
            session = SessionHandle.from_dict(_session)

        _tools = d.pop("tools", UNSET)
        tools: list[ToolDefinition] | Unset = UNSET
        if _tools is not UNSET:
            tools = []
            for tools_item_data in _tools:
                tools_item = ToolDefinition.from_dict(tools_item_data)

                tools.append(tools_item)

        idle_timeout_ms = d.pop("idleTimeoutMs", UNSET)

        action_timeout_ms = d.pop("actionTimeoutMs", UNSET)

        _on_disconnect = d.pop("onDisconnect", UNSET)
        on_disconnect: OnDisconnect | Unset
        if isinstance(_on_disconnect, Unset):
            on_disconnect = UNSET
        else:
            on_disconnect = OnDisconnect(_on_disconnect)

        run_request = cls(
            provider=provider,
            model=model,
            input_=input_,
            instructions=instructions,
            history=history,
            attachments=attachments,
            retrieval=retrieval,
            session=session,
            tools=tools,
            idle_timeout_ms=idle_timeout_ms,
            action_timeout_ms=action_timeout_ms,
            on_disconnect=on_disconnect,
        )

        return run_request
