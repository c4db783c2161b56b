# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RunEventMessage")


@_attrs_define
class RunEventMessage:
    """One Server-Sent Events message of a streamed run (`streamRun`,
    `streamRunActions`), as its fields: the way OpenAPI 3.2 models each
    item of a `text/event-stream`. `data` is one `RunEvent` as JSON; `event`
    equals that event's `type`; `id` numbers the run's events from 1, once
    across every stream that carries them (`streamRun`, then each
    `streamRunActions`, and `streamRunEvents`, which replays them with
    the same ids). Comment lines (`: keep-alive`) are not messages.
    Clients ignore event types they do not know.

        Attributes:
            id (str): The event's position among its run's events, from 1 (send it back as `Last-Event-ID`).
            event (str): The `type` of the `RunEvent` in `data`.
            data (str): One `RunEvent`, as JSON on a single line.
            retry (int | Unset): A reconnection delay in milliseconds (SSE `retry` field); the host does not send one today.
    """

    id: str
    event: str
    data: str
    retry: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        event = self.event

        data = self.data

        retry = self.retry

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "event": event,
                "data": data,
            }
        )
        if retry is not UNSET:
            field_dict["retry"] = retry

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        event = d.pop("event")

        data = d.pop("data")

        retry = d.pop("retry", UNSET)

        run_event_message = cls(
            id=id,
            event=event,
            data=data,
            retry=retry,
        )

        run_event_message.additional_properties = d
        return run_event_message

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
