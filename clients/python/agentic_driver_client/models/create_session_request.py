# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.native_history_filter import NativeHistoryFilter
from ..models.session_mode import SessionMode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.message import Message


T = TypeVar("T", bound="CreateSessionRequest")


@_attrs_define
class CreateSessionRequest:
    """A `nativeHistory` other than `full` needs `mode` native.

    Attributes:
        provider (str): The provider instance id.
        model (str): A model the instance serves.
        mode (SessionMode): `history` keeps submitted user text and final visible assistant text.
            `native` also keeps the provider's own state, unchanged, inside the host.
        instructions (str | Unset): Instructions (a system prompt) that belong to the session from now on.
        history (list[Message] | Unset): Visible messages to import, bounded by `maxMessages` and `maxRecordBytes`.
        native_history (NativeHistoryFilter | Unset): What a native session keeps of each stored turn (applied when the
            turn
            is stored, so replay and bounds both see the filtered history).
            `full` keeps everything; `no_reasoning` drops reasoning/thinking blocks
            whole (never edits one; Gemini's signed parts stay); `no_tool_results`
            replaces each tool result's content with a short placeholder, keeping
            calls and results paired; `compact_tool_results` cuts each tool result
            (a string or a list of text blocks) to at most the host's
            `sessions.compactToolResultsMaxChars` characters. A history that ends
            inside a tool round keeps that round as it is.
    """

    provider: str
    model: str
    mode: SessionMode
    instructions: str | Unset = UNSET
    history: list[Message] | Unset = UNSET
    native_history: NativeHistoryFilter | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        provider = self.provider

        model = self.model

        mode = self.mode.value

        instructions = self.instructions

        history: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.history, Unset):
            history = []
            for history_item_data in self.history:
                history_item = history_item_data.to_dict()
                history.append(history_item)

        native_history: str | Unset = UNSET
        if not isinstance(self.native_history, Unset):
            native_history = self.native_history.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "provider": provider,
                "model": model,
                "mode": mode,
            }
        )
        if instructions is not UNSET:
            field_dict["instructions"] = instructions
        if history is not UNSET:
            field_dict["history"] = history
        if native_history is not UNSET:
            field_dict["nativeHistory"] = native_history

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.message import Message

        d = dict(src_dict)
        provider = d.pop("provider")

        model = d.pop("model")

        mode = SessionMode(d.pop("mode"))

        instructions = d.pop("instructions", UNSET)

        _history = d.pop("history", UNSET)
        history: list[Message] | Unset = UNSET
        if _history is not UNSET:
            history = []
            for history_item_data in _history:
                history_item = Message.from_dict(history_item_data)

                history.append(history_item)

        _native_history = d.pop("nativeHistory", UNSET)
        native_history: NativeHistoryFilter | Unset
        if isinstance(_native_history, Unset):
            native_history = UNSET
        else:
            native_history = NativeHistoryFilter(_native_history)

        create_session_request = cls(
            provider=provider,
            model=model,
            mode=mode,
            instructions=instructions,
            history=history,
            native_history=native_history,
        )

        return create_session_request
