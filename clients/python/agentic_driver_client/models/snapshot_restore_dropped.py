# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SnapshotRestoreDropped")


@_attrs_define
class SnapshotRestoreDropped:
    """Sessions not restored, by reason (each logged with its id).

    Attributes:
        expired (int): Their retention ran out while the host was down.
        provider_removed (int): Their provider instance is no longer configured.
        account_changed (int): Their instance is now bound to another account, or to none.
        model_removed (int): Their instance no longer serves their model.
        over_limits (int): They no longer fit the store's bounds (tightened `sessions` settings, or a full store).
    """

    expired: int
    provider_removed: int
    account_changed: int
    model_removed: int
    over_limits: int

    def to_dict(self) -> dict[str, Any]:
        expired = self.expired

        provider_removed = self.provider_removed

        account_changed = self.account_changed

        model_removed = self.model_removed

        over_limits = self.over_limits

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "expired": expired,
                "providerRemoved": provider_removed,
                "accountChanged": account_changed,
                "modelRemoved": model_removed,
                "overLimits": over_limits,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        expired = d.pop("expired")

        provider_removed = d.pop("providerRemoved")

        account_changed = d.pop("accountChanged")

        model_removed = d.pop("modelRemoved")

        over_limits = d.pop("overLimits")

        snapshot_restore_dropped = cls(
            expired=expired,
            provider_removed=provider_removed,
            account_changed=account_changed,
            model_removed=model_removed,
            over_limits=over_limits,
        )

        return snapshot_restore_dropped
