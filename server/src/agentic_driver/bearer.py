"""``Authorization: Bearer`` -> principal: the policy every request of the HTTP host is authenticated against.

``BearerPolicy`` is who may call according to one reading of host JSON: its static ``tokens``
(``auth.TokenPolicy``) and its ``auth.jwt`` issuers (``auth_jwt``, imported only by a host that configures
one). ``Authenticator`` holds the current policy; a reload (SIGHUP, see ``cli.reload_auth``) builds a new one
from the file and swaps it in one assignment, so a request is authenticated by the old policy or the new
one, never a mix, and a request already authenticated keeps its principal.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING

from .auth import Rejection, SessionPrincipal, TokenPolicy
from .config import HostConfig
from .errors import Unauthenticated

if TYPE_CHECKING:
    from .auth_jwt import JwtIssuers

__all__ = ["Authenticator", "BearerPolicy", "looks_like_jwt"]


_JWT_SHAPE = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*")


def looks_like_jwt(token: str) -> bool:
    """Three base64url parts joined by dots (the last may be empty: ``alg: none`` still reaches the verifier,
    to be refused with its reason)."""
    return _JWT_SHAPE.fullmatch(token) is not None


class BearerPolicy:
    """Who may call, from one reading of host JSON: its static ``tokens`` and its ``auth.jwt`` issuers.

    A presented token is first compared with every static token (in constant time, as ``TokenPolicy`` does);
    one that did not match and looks like a JWT goes to the JWT verifier when issuers are configured."""

    def __init__(self, tokens: TokenPolicy, issuers: JwtIssuers | None = None) -> None:
        self._tokens = tokens
        self._issuers = issuers

    @classmethod
    def from_config(cls, config: HostConfig, previous: BearerPolicy | None = None) -> BearerPolicy:
        """The policy of ``config``; raises ``ConfigError`` (a ``tokenEnv`` unset, a ``jwksFile`` unreadable).

        Issuers configured exactly as in ``previous`` keep the keys they fetched (a reload fetches nothing)."""
        tokens = TokenPolicy(config.tokens)
        if not config.auth.jwt:
            return cls(tokens)
        from .auth_jwt import JwtIssuers  # only a host with identity providers needs PyJWT and httpx

        return cls(tokens, JwtIssuers(config.auth.jwt, previous._issuers if previous is not None else None))

    async def authenticate(self, presented: str) -> SessionPrincipal:
        """The principal of a presented (non-empty) bearer token; raises ``Unauthenticated`` with its reason."""
        digest = hashlib.sha256(presented.encode("utf-8")).digest()
        found = self._tokens.match(digest)
        if found is not None:
            return found
        if self._issuers is not None:
            found = self._issuers.cached(digest)  # a JWT verified before: one dictionary lookup
            if found is not None:
                return found
            if looks_like_jwt(presented):
                return await self._issuers.verify(presented, digest)
        raise Rejection.UNKNOWN_TOKEN.error()

    def __repr__(self) -> str:
        return f"BearerPolicy({len(self._tokens)} tokens, {len(self._issuers or ())} issuers)"


class Authenticator:
    """The host's current bearer policy, read once per request; ``replace`` swaps it (a reload)."""

    def __init__(self, policy: BearerPolicy) -> None:
        self.policy = policy

    async def principal(self, authorization: str) -> SessionPrincipal:
        """The caller of a request with this ``Authorization`` header (``""`` when absent)."""
        scheme, _, presented = authorization.partition(" ")
        presented = presented.strip()
        if scheme.lower() != "bearer" or not presented:
            raise Unauthenticated("A valid bearer token is required.")
        return await self.policy.authenticate(presented)

    def replace(self, config: HostConfig) -> BearerPolicy:
        """Build the policy of ``config`` and make it current in one assignment; raises ``ConfigError`` and keeps
        the current one if it cannot be built. Requests already authenticated keep their principal."""
        policy = BearerPolicy.from_config(config, self.policy)
        self.policy = policy
        return policy
