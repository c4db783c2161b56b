# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SessionsPolicy")


@_attrs_define
class SessionsPolicy:
    """
    Attributes:
        enabled (bool): Whether this host keeps sessions.
        retention_ms (int | None): Idle retention in milliseconds; null when sessions are disabled.
        max_entries (int): The most sessions the store holds at once.
        max_messages (int): The most visible messages one session holds.
        max_record_bytes (int): The most encoded bytes one session holds (history, provider state and instructions).
        max_native_messages (int): The most provider-native messages one native session holds.
    """

    enabled: bool
    retention_ms: int | None
    max_entries: int
    max_messages: int
    max_record_bytes: int
    max_native_messages: int

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        retention_ms: int | None
        retention_ms = self.retention_ms

        max_entries = self.max_entries

        max_messages = self.max_messages

        max_record_bytes = self.max_record_bytes

        max_native_messages = self.max_native_messages

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "enabled": enabled,
                "retentionMs": retention_ms,
                "maxEntries": max_entries,
                "maxMessages": max_messages,
                "maxRecordBytes": max_record_bytes,
                "maxNativeMessages": max_native_messages,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        enabled = d.pop("enabled")

        def _parse_retention_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        retention_ms = _parse_retention_ms(d.pop("retentionMs"))

        max_entries = d.pop("maxEntries")

        max_messages = d.pop("maxMessages")

        max_record_bytes = d.pop("maxRecordBytes")

        max_native_messages = d.pop("maxNativeMessages")

        sessions_policy = cls(
            enabled=enabled,
            retention_ms=retention_ms,
            max_entries=max_entries,
            max_messages=max_messages,
            max_record_bytes=max_record_bytes,
            max_native_messages=max_native_messages,
        )

        return sessions_policy
