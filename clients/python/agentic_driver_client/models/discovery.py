# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.session_grant import SessionGrant
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.provider_info import ProviderInfo
    from ..models.runs_policy import RunsPolicy
    from ..models.sessions_policy import SessionsPolicy


T = TypeVar("T", bound="Discovery")


@_attrs_define
class Discovery:
    """
    Attributes:
        host_id (str): The host process's id (a DNS label); the session and run ids it makes name it.
        version (str): The host software version.
        subject (str): The subject the caller's token maps to.
        session_grants (list[SessionGrant]): The session operations the caller's token is granted.
        providers (list[ProviderInfo]): The provider instances the caller's token may use.
        sessions (SessionsPolicy):
        runs (RunsPolicy | Unset): How the host keeps runs for rejoining (`streamRunEvents`) and reading (`getRun`).
    """

    host_id: str
    version: str
    subject: str
    session_grants: list[SessionGrant]
    providers: list[ProviderInfo]
    sessions: SessionsPolicy
    runs: RunsPolicy | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        host_id = self.host_id

        version = self.version

        subject = self.subject

        session_grants = []
        for session_grants_item_data in self.session_grants:
            session_grants_item = session_grants_item_data.value
            session_grants.append(session_grants_item)

        providers = []
        for providers_item_data in self.providers:
            providers_item = providers_item_data.to_dict()
            providers.append(providers_item)

        sessions = self.sessions.to_dict()

        runs: dict[str, Any] | Unset = UNSET
        if not isinstance(self.runs, Unset):
            runs = self.runs.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "hostId": host_id,
                "version": version,
                "subject": subject,
                "sessionGrants": session_grants,
                "providers": providers,
                "sessions": sessions,
            }
        )
        if runs is not UNSET:
            field_dict["runs"] = runs

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.provider_info import ProviderInfo
        from ..models.runs_policy import RunsPolicy
        from ..models.sessions_policy import SessionsPolicy

        d = dict(src_dict)
        host_id = d.pop("hostId")

        version = d.pop("version")

        subject = d.pop("subject")

        session_grants = []
        _session_grants = d.pop("sessionGrants")
        for session_grants_item_data in _session_grants:
            session_grants_item = SessionGrant(session_grants_item_data)

            session_grants.append(session_grants_item)

        providers = []
        _providers = d.pop("providers")
        for providers_item_data in _providers:
            providers_item = ProviderInfo.from_dict(providers_item_data)

            providers.append(providers_item)

        sessions = SessionsPolicy.from_dict(d.pop("sessions"))

        _runs = d.pop("runs", UNSET)
        runs: RunsPolicy | Unset
        if isinstance(_runs, Unset):
            runs = UNSET
        else:
            runs = RunsPolicy.from_dict(_runs)

        discovery = cls(
            host_id=host_id,
            version=version,
            subject=subject,
            session_grants=session_grants,
            providers=providers,
            sessions=sessions,
            runs=runs,
        )

        return discovery
