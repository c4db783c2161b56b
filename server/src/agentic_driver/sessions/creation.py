"""Creating a session: what the provider must offer for the mode asked, then the record the store makes."""

from __future__ import annotations

from pydantic import MISSING

from ..errors import SessionAccountRequired, UnsupportedContinuation, ValidationFailed
from ..models import CreateSessionRequest
from ..providers.base import NativeFiltering, Provider, VisibleMessage
from .records import Owner, SessionRecord
from .store import SessionStore

__all__ = ["create_session"]


def create_session(
    store: SessionStore,
    provider: Provider,
    subject: str,
    request: CreateSessionRequest,
    *,
    native_refusal: str | None = None,
) -> SessionRecord:
    """A new session of ``subject`` on ``provider`` (already granted), or the refusal of what it cannot keep.

    ``native_refusal``: why native continuation is refused on this instance and model although the adapter has
    it (host JSON's qualification requirement), checked after the provider's own capabilities.
    """
    if provider.account_id is None:
        raise SessionAccountRequired(f"Provider {provider.id!r} has no account binding; it serves stateless runs only.")
    capabilities = provider.capabilities
    supported = capabilities.native_continuation if request.mode == "native" else capabilities.history_continuation
    if not supported:
        raise UnsupportedContinuation(f"Provider {provider.id!r} does not support {request.mode} continuation.")
    if request.mode == "native" and native_refusal is not None:
        raise UnsupportedContinuation(native_refusal)
    native_filter = "full" if request.nativeHistory is MISSING else request.nativeHistory
    _check_native_filter(provider, request.mode, native_filter)
    history = [] if request.history is MISSING else [VisibleMessage(m.role, m.content) for m in request.history]
    return store.create(
        Owner(subject, provider.id, provider.account_id, request.model),
        request.mode,
        None if request.instructions is MISSING else request.instructions,
        history,
        native_filter=native_filter,
    )


def _check_native_filter(provider: Provider, mode: str, native_filter: str) -> None:
    if native_filter == "full":
        return
    if mode != "native":
        raise ValidationFailed(
            "nativeHistory filters apply to native sessions only.",
            errors=[{"location": "body.nativeHistory", "message": "requires mode native"}],
        )
    if native_filter not in provider.capabilities.native_filters or not isinstance(provider, NativeFiltering):
        raise UnsupportedContinuation(f"Provider {provider.id!r} does not support the {native_filter} native history.")
