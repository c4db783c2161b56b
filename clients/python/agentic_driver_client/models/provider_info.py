# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.provider_capabilities import ProviderCapabilities


T = TypeVar("T", bound="ProviderInfo")


@_attrs_define
class ProviderInfo:
    """
    Attributes:
        id (str): The provider instance id used in requests.
        kind (str): The adapter kind, for example `echo`.
        models (list[str]): The models this instance serves.
        account_bound (bool): Whether the instance has an account binding, which sessions require. The account id itself
            is never disclosed.
        capabilities (ProviderCapabilities):
    """

    id: str
    kind: str
    models: list[str]
    account_bound: bool
    capabilities: ProviderCapabilities

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind = self.kind

        models = self.models

        account_bound = self.account_bound

        capabilities = self.capabilities.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "models": models,
                "accountBound": account_bound,
                "capabilities": capabilities,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.provider_capabilities import ProviderCapabilities

        d = dict(src_dict)
        id = d.pop("id")

        kind = d.pop("kind")

        models = cast(list[str], d.pop("models"))

        account_bound = d.pop("accountBound")

        capabilities = ProviderCapabilities.from_dict(d.pop("capabilities"))

        provider_info = cls(
            id=id,
            kind=kind,
            models=models,
            account_bound=account_bound,
            capabilities=capabilities,
        )

        return provider_info
