# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.snapshot_restore_dropped import SnapshotRestoreDropped


T = TypeVar("T", bound="SnapshotRestore")


@_attrs_define
class SnapshotRestore:
    """Present when this process started from the snapshot its previous run
    wrote on a clean drain (host JSON `sessions.snapshot`): what it took
    back before it reported ready.

        Attributes:
            sessions (int): Sessions restored, with their ids and revisions.
            idempotency_keys (int): Idempotency records restored (a retry after the restart replays its outcome).
            dropped (SnapshotRestoreDropped): Sessions not restored, by reason (each logged with its id).
    """

    sessions: int
    idempotency_keys: int
    dropped: SnapshotRestoreDropped

    def to_dict(self) -> dict[str, Any]:
        sessions = self.sessions

        idempotency_keys = self.idempotency_keys

        dropped = self.dropped.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "sessions": sessions,
                "idempotencyKeys": idempotency_keys,
                "dropped": dropped,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.snapshot_restore_dropped import SnapshotRestoreDropped

        d = dict(src_dict)
        sessions = d.pop("sessions")

        idempotency_keys = d.pop("idempotencyKeys")

        dropped = SnapshotRestoreDropped.from_dict(d.pop("dropped"))

        snapshot_restore = cls(
            sessions=sessions,
            idempotency_keys=idempotency_keys,
            dropped=dropped,
        )

        return snapshot_restore
