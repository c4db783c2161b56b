"""Bearer tokens -> principals, and the grant checks every operation makes.

Tokens are kept only as SHA-256 digests and compared in constant time; a
secret is never logged, stored in clear or shown by ``repr``.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass
from typing import Literal

from .config import ConfigError, TokenConfig
from .errors import PermissionDenied

__all__ = ["SessionGrant", "SessionPrincipal", "TokenPolicy", "sha256_hex"]

SessionGrant = Literal["create", "read", "continue", "delete"]
ALL_GRANTS: frozenset[SessionGrant] = frozenset(("create", "read", "continue", "delete"))


@dataclass(frozen=True, slots=True)
class SessionPrincipal:
    """Who is calling: trusted as given in embedded use, derived from a token over HTTP."""

    subject: str = "local"
    """The owner of the sessions this principal creates."""
    providers: frozenset[str] | None = None
    """Provider instances the principal may use; ``None`` means every instance."""
    grants: frozenset[SessionGrant] = ALL_GRANTS
    """Session operations the principal may perform."""

    def may_use(self, provider_id: str) -> bool:
        return self.providers is None or provider_id in self.providers

    def require_provider(self, provider_id: str) -> None:
        if not self.may_use(provider_id):
            raise PermissionDenied(f"The token does not grant provider {provider_id!r}.")

    def require_grant(self, grant: SessionGrant) -> None:
        if grant not in self.grants:
            raise PermissionDenied(f"The token does not grant the session permission {grant!r}.")


def sha256_hex(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class _Entry:
    digest: bytes
    principal: SessionPrincipal

    def __repr__(self) -> str:
        return f"_Entry(subject={self.principal.subject!r})"


class TokenPolicy:
    """Maps a presented bearer token to its principal."""

    def __init__(self, tokens: list[TokenConfig]) -> None:
        self._entries = [_Entry(_digest_of(t, i), _principal_of(t)) for i, t in enumerate(tokens)]

    def authenticate(self, presented: str) -> SessionPrincipal | None:
        digest = hashlib.sha256(presented.encode("utf-8")).digest()
        found: SessionPrincipal | None = None
        # Compare against every entry so the time taken does not depend on which one matches.
        for entry in self._entries:
            if hmac.compare_digest(entry.digest, digest):
                found = entry.principal
        return found

    def __repr__(self) -> str:
        return f"TokenPolicy({len(self._entries)} tokens)"


def _digest_of(token: TokenConfig, index: int) -> bytes:
    if token.tokenSha256 is not None:
        return bytes.fromhex(token.tokenSha256)
    if token.tokenEnv is not None:
        secret = os.environ.get(token.tokenEnv)
        if not secret:
            raise ConfigError([f"tokens[{index}].tokenEnv: environment variable {token.tokenEnv} is not set"])
        return hashlib.sha256(secret.encode("utf-8")).digest()
    assert token.token is not None  # guaranteed by TokenConfig's validator
    return hashlib.sha256(token.token.encode("utf-8")).digest()


def _principal_of(token: TokenConfig) -> SessionPrincipal:
    providers = None if "*" in token.providers else frozenset(token.providers)
    return SessionPrincipal(subject=token.subject, providers=providers, grants=frozenset(token.sessions))
