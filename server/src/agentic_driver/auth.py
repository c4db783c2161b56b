"""Bearer tokens -> principals, and the grant checks every operation makes.

Static tokens are kept only as SHA-256 digests and compared in constant time; a
secret is never logged, stored in clear or shown by ``repr``. JWT access tokens
from identity providers (host JSON ``auth.jwt``) are verified by ``auth_jwt``;
``bearer`` puts both behind the one policy a request is authenticated against.
``Rejection`` names why a presented token was refused.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from .config import ConfigError, TokenConfig
from .errors import PermissionDenied, Unauthenticated

__all__ = [
    "Rejection",
    "SessionGrant",
    "SessionPrincipal",
    "TokenPolicy",
    "bearer_matches",
    "secret_digest",
    "sha256_hex",
]

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
    """Maps a presented static bearer token to its principal."""

    def __init__(self, tokens: list[TokenConfig]) -> None:
        self._entries = [_Entry(_digest_of(t, i), _principal_of(t)) for i, t in enumerate(tokens)]

    def __len__(self) -> int:
        return len(self._entries)

    def authenticate(self, presented: str) -> SessionPrincipal | None:
        return self.match(hashlib.sha256(presented.encode("utf-8")).digest())

    def match(self, digest: bytes) -> SessionPrincipal | None:
        """The principal of the configured token with this SHA-256, if any."""
        found: SessionPrincipal | None = None
        # Compare against every entry so the time taken does not depend on which one matches.
        for entry in self._entries:
            if hmac.compare_digest(entry.digest, digest):
                found = entry.principal
        return found

    def __repr__(self) -> str:
        return f"TokenPolicy({len(self._entries)} tokens)"


def _digest_of(token: TokenConfig, index: int) -> bytes:
    digest = secret_digest(token.token, token.tokenEnv, token.tokenSha256, f"tokens[{index}]")
    assert digest is not None  # guaranteed by TokenConfig's validator
    return digest


def secret_digest(token: str | None, token_env: str | None, token_sha256: str | None, where: str) -> bytes | None:
    """The SHA-256 of a configured secret, given as itself, by environment variable or as its hex digest."""
    if token_sha256 is not None:
        return bytes.fromhex(token_sha256)
    if token_env is not None:
        secret = os.environ.get(token_env)
        if not secret:
            raise ConfigError([f"{where}.tokenEnv: environment variable {token_env} is not set"])
        return hashlib.sha256(secret.encode("utf-8")).digest()
    return hashlib.sha256(token.encode("utf-8")).digest() if token is not None else None


def bearer_matches(authorization: str, digest: bytes) -> bool:
    """Whether an ``Authorization`` header presents the bearer secret with this SHA-256 (in constant time)."""
    scheme, _, presented = authorization.partition(" ")
    candidate = hashlib.sha256(presented.strip().encode("utf-8")).digest()
    return hmac.compare_digest(candidate, digest) and scheme.lower() == "bearer" and bool(presented.strip())


def _principal_of(token: TokenConfig) -> SessionPrincipal:
    providers = None if "*" in token.providers else frozenset(token.providers)
    return SessionPrincipal(subject=token.subject, providers=providers, grants=frozenset(token.sessions))


class Rejection(StrEnum):
    """Why a presented bearer token was refused: the ``error_description`` of the 401's ``invalid_token``
    challenge, and the end of the problem's ``detail``. A fixed class, never any part of the token or its claims."""

    UNKNOWN_TOKEN = "unknown token"
    """Neither a configured static token (an unknown or revoked one) nor a JWT for a configured issuer."""
    MALFORMED = "malformed"
    """Not a well-formed JWT (encoding, JSON, a claim of the wrong type)."""
    EXPIRED = "expired"
    """``exp`` has passed (beyond the issuer's leeway)."""
    NOT_YET_VALID = "not yet valid"
    """``nbf`` or ``iat`` is in the future (beyond the issuer's leeway)."""
    WRONG_ISSUER = "wrong issuer"
    """``iss`` names no configured issuer."""
    WRONG_AUDIENCE = "wrong audience"
    """``aud`` names none of the issuer's configured audiences."""
    BAD_SIGNATURE = "bad signature"
    """The signature does not verify with the issuer's key."""
    UNKNOWN_KEY = "unknown key"
    """``kid`` names no key the issuer publishes, even after a fetch of its JWKS."""
    ALGORITHM_NOT_ALLOWED = "algorithm not allowed"
    """``alg`` is not in the issuer's ``algorithms`` (``none`` and HMAC never are), or not the key's own."""
    MISSING_CLAIM = "missing claim"
    """A required claim is absent: ``exp``, ``iss``, ``aud`` or the subject claim."""
    KEYS_UNAVAILABLE = "keys unavailable"
    """The issuer's JWKS could not be fetched yet (the host logs why); retry later."""

    def error(self) -> Unauthenticated:
        return Unauthenticated(f"The bearer token is not valid: {self.value}.", invalid_token=self.value)
