# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.interrupted_turn import InterruptedTurn
    from ..models.message import Message
    from ..models.session_info import SessionInfo
    from ..models.turn import Turn


T = TypeVar("T", bound="ReadSessionResponse")


@_attrs_define
class ReadSessionResponse:
    """
    Attributes:
        session (SessionInfo):
        instructions (None | str): The session's instructions, or null.
        history (list[Message]): The visible history, oldest first. Provider-private state is never shown.
        turns (list[Turn]): The recorded turns still in the history, oldest first.
        interrupted_turn (InterruptedTurn | Unset): The turn that interrupted the session, for the application to
            reconcile.
    """

    session: SessionInfo
    instructions: None | str
    history: list[Message]
    turns: list[Turn]
    interrupted_turn: InterruptedTurn | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        session = self.session.to_dict()

        instructions: None | str
        instructions = self.instructions

        history = []
        for history_item_data in self.history:
            history_item = history_item_data.to_dict()
            history.append(history_item)

        turns = []
        for turns_item_data in self.turns:
            turns_item = turns_item_data.to_dict()
            turns.append(turns_item)

        interrupted_turn: dict[str, Any] | Unset = UNSET
        if not isinstance(self.interrupted_turn, Unset):
            interrupted_turn = self.interrupted_turn.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "session": session,
                "instructions": instructions,
                "history": history,
                "turns": turns,
            }
        )
        if interrupted_turn is not UNSET:
            field_dict["interruptedTurn"] = interrupted_turn

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.interrupted_turn import InterruptedTurn
        from ..models.message import Message
        from ..models.session_info import SessionInfo
        from ..models.turn import Turn

        d = dict(src_dict)
        session = SessionInfo.from_dict(d.pop("session"))

        def _parse_instructions(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        instructions = _parse_instructions(d.pop("instructions"))

        history = []
        _history = d.pop("history")
        for history_item_data in _history:
            history_item = Message.from_dict(history_item_data)

            history.append(history_item)

        turns = []
        _turns = d.pop("turns")
        for turns_item_data in _turns:
            turns_item = Turn.from_dict(turns_item_data)

            turns.append(turns_item)

        _interrupted_turn = d.pop("interruptedTurn", UNSET)
        interrupted_turn: InterruptedTurn | Unset
        if isinstance(_interrupted_turn, Unset):
            interrupted_turn = UNSET
        else:
            interrupted_turn = InterruptedTurn.from_dict(_interrupted_turn)

        read_session_response = cls(
            session=session,
            instructions=instructions,
            history=history,
            turns=turns,
            interrupted_turn=interrupted_turn,
        )

        return read_session_response
