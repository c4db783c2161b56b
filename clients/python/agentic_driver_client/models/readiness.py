# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.snapshot_restore import SnapshotRestore


T = TypeVar("T", bound="Readiness")


@_attrs_define
class Readiness:
    """
    Attributes:
        status (Literal['ready']): Always `ready` while the host takes new work.
        restored (SnapshotRestore | Unset): Present when this process started from the snapshot its previous run
            wrote on a clean drain (host JSON `sessions.snapshot`): what it took
            back before it reported ready.
    """

    status: Literal["ready"]
    restored: SnapshotRestore | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        restored: dict[str, Any] | Unset = UNSET
        if not isinstance(self.restored, Unset):
            restored = self.restored.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
            }
        )
        if restored is not UNSET:
            field_dict["restored"] = restored

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.snapshot_restore import SnapshotRestore

        d = dict(src_dict)
        status = cast(Literal["ready"], d.pop("status"))
        if status != "ready":
            raise ValueError(f"status must match const 'ready', got '{status}'")

        _restored = d.pop("restored", UNSET)
        restored: SnapshotRestore | Unset
        if isinstance(_restored, Unset):
            restored = UNSET
        else:
            restored = SnapshotRestore.from_dict(_restored)

        readiness = cls(
            status=status,
            restored=restored,
        )

        return readiness
