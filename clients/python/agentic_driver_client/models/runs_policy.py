# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.on_disconnect import OnDisconnect

T = TypeVar("T", bound="RunsPolicy")


@_attrs_define
class RunsPolicy:
    """How the host keeps runs for rejoining (`streamRunEvents`) and reading (`getRun`).

    Attributes:
        on_disconnect (list[OnDisconnect]): The `onDisconnect` values this host honours.
        max_run_event_bytes (int): The most bytes of events buffered per run (host `limits.maxRunEventBytes`); older
            events are dropped first.
        retention_ms (int): How long an ended run stays readable (host `runs.retentionMs`).
        max_entries (int): The most ended runs kept readable at once (host `runs.maxEntries`), the oldest forgotten
            first.
    """

    on_disconnect: list[OnDisconnect]
    max_run_event_bytes: int
    retention_ms: int
    max_entries: int

    def to_dict(self) -> dict[str, Any]:
        on_disconnect = []
        for on_disconnect_item_data in self.on_disconnect:
            on_disconnect_item = on_disconnect_item_data.value
            on_disconnect.append(on_disconnect_item)

        max_run_event_bytes = self.max_run_event_bytes

        retention_ms = self.retention_ms

        max_entries = self.max_entries

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "onDisconnect": on_disconnect,
                "maxRunEventBytes": max_run_event_bytes,
                "retentionMs": retention_ms,
                "maxEntries": max_entries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        on_disconnect = []
        _on_disconnect = d.pop("onDisconnect")
        for on_disconnect_item_data in _on_disconnect:
            on_disconnect_item = OnDisconnect(on_disconnect_item_data)

            on_disconnect.append(on_disconnect_item)

        max_run_event_bytes = d.pop("maxRunEventBytes")

        retention_ms = d.pop("retentionMs")

        max_entries = d.pop("maxEntries")

        runs_policy = cls(
            on_disconnect=on_disconnect,
            max_run_event_bytes=max_run_event_bytes,
            retention_ms=retention_ms,
            max_entries=max_entries,
        )

        return runs_policy
