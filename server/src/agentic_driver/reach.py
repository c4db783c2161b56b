"""What a caller may reach: the provider instances its token grants and its own sessions.

The driver (for every operation) and the turn admission (for a run, in the
order its refusals are reported) look through this one place, so a session of
another identity is reported exactly like a missing one everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping

from .auth import SessionPrincipal
from .errors import ModelNotFound, ProviderNotFound, SessionNotFound, SessionsDisabled
from .providers import Provider
from .sessions import SessionRecord, SessionStore

__all__ = ["Reach"]


class Reach:
    def __init__(self, providers: Mapping[str, Provider], store: SessionStore | None) -> None:
        self.providers = providers
        self.store = store
        """The session store, or None when sessions are disabled."""

    def provider(self, provider_id: str) -> Provider:
        provider = self.providers.get(provider_id)
        if provider is None:
            raise ProviderNotFound(f"No provider instance {provider_id!r} on this host.")
        return provider

    def granted_provider(self, principal: SessionPrincipal, provider_id: str, model: str) -> Provider:
        provider = self.provider(provider_id)
        principal.require_provider(provider.id)
        if model not in provider.models:
            raise ModelNotFound(f"Provider {provider.id!r} does not serve model {model!r}.")
        return provider

    def require_store(self) -> SessionStore:
        if self.store is None:
            raise SessionsDisabled("This host keeps no sessions (it sets no sessions.retentionMs).")
        return self.store

    def owned_session(
        self, principal: SessionPrincipal, session_id: str, *, provider: str | None = None, model: str | None = None
    ) -> SessionRecord:
        """The caller's session; any other identity's is reported exactly like a missing one."""
        record = self.require_store().get(session_id)
        owner = record.owner if record is not None else None
        if (
            record is None
            or owner is None
            or owner.subject != principal.subject
            or (provider is not None and owner.provider != provider)
            or (model is not None and owner.model != model)
        ):
            scope = "this caller" if provider is None else "this caller, provider and model"
            raise SessionNotFound(f"No session {session_id!r} for {scope}.")
        principal.require_provider(owner.provider)
        return record
