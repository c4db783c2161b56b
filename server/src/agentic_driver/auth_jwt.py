"""JWT access tokens from identity providers -> principals (host JSON ``auth.jwt``).

A token is verified against the issuer entry its ``iss`` names, in this order, each failure a
``Rejection`` (a 401 whose challenge names the reason class, never the token):

1. well-formed (three base64url parts, JSON header and payload) else ``malformed``;
   ``iss`` present else ``missing claim``, and configured else ``wrong issuer``;
2. ``alg`` in the entry's ``algorithms`` (asymmetric only; config refuses ``none`` and HS*) else
   ``algorithm not allowed``; a key whose JWK declares another ``alg``, or of another type, too;
3. ``kid`` found in the issuer's keys (fetched again once if not, rate-limited) else ``unknown key``;
4. PyJWT verifies the signature (with the key bound to that one algorithm), ``exp`` (required),
   ``nbf``, ``iat`` (with ``leewaySeconds``), ``iss`` and ``aud``;
5. the claims give the principal: subject, grants (``sessions:*`` words), provider instances.

PyJWT does the cryptography (PyCA ``cryptography`` underneath) and JWK parsing; it is well kept, takes an
explicit algorithm list on every call and binds a JWK to one algorithm. Its ``PyJWKClient`` is not used: it
fetches with blocking ``urllib`` under a threading lock (each use would need a thread of its own, and a slow
issuer would hold them all), and the releases our floor (2.10) admits refetch on every unknown ``kid``, so a
stream of made-up key ids would have the host fetch per request (later ones add a cooldown). Keys are
fetched here with httpx's async client instead (the host's HTTP client already; the TLS context, whose CA
bundle loading blocks, is built once in a thread), one fetch at a time per issuer: requests whose key is not
held wait for it (at most one such fetch per ``jwksMinRefetchSeconds``); stale keys are fetched again in the
background while they serve; and a failed fetch keeps the keys fetched before.

A verified token is remembered by its SHA-256 until its ``exp`` plus the issuer's leeway in a bounded LRU, so a token an
application repeats costs one dictionary lookup after the first request. A reload builds a new, empty cache.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import logging
import ssl
import time
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import jwt
import orjson

from .auth import ALL_GRANTS, Rejection, SessionGrant, SessionPrincipal
from .config import ConfigError, JwtIssuerConfig

__all__ = ["VERIFIED_TOKENS_MAX", "JwtIssuers", "parse_jwks"]

log = logging.getLogger("agentic_driver.auth")

VERIFIED_TOKENS_MAX = 10_000
"""Verified tokens remembered at once (the least recently used is forgotten first)."""
JWKS_MAX_BYTES = 1024 * 1024
"""The largest JWKS document read (an issuer publishes a few keys: a few kilobytes)."""
JWKS_FETCH_TIMEOUT_S = 5.0
GRANT_PREFIX = "sessions:"


class _Refused(Exception):
    def __init__(self, reason: Rejection) -> None:
        super().__init__(reason.value)
        self.reason = reason


class _JwksError(Exception):
    """A JWKS document that cannot be used; the message says why (it names no secret: a JWKS holds none)."""


def parse_jwks(document: bytes) -> dict[str | None, dict[str, Any]]:
    """``kid`` -> JWK of the signing keys of a JWKS document (``None`` for a key without ``kid``).

    Encryption keys (``use: enc``) and symmetric keys (``kty: oct``) are left out: no token is ever verified
    with a shared secret."""
    try:
        data = orjson.loads(document)
    except orjson.JSONDecodeError as error:
        raise _JwksError(f"not JSON ({error})") from None
    keys = data.get("keys") if isinstance(data, dict) else None
    if not isinstance(keys, list):
        raise _JwksError('not a JWKS: no "keys" list')
    found: dict[str | None, dict[str, Any]] = {}
    for key in keys:
        if not isinstance(key, dict) or not isinstance(key.get("kty"), str):
            raise _JwksError('not a JWKS: a key without "kty"')
        if key.get("use", "sig") != "sig" or key["kty"] == "oct":
            continue
        kid = key.get("kid")
        found.setdefault(kid if isinstance(kid, str) else None, key)
    return found


def _segment(part: str) -> dict[str, Any]:
    try:
        value = orjson.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    except (binascii.Error, ValueError):
        raise _Refused(Rejection.MALFORMED) from None
    if not isinstance(value, dict):
        raise _Refused(Rejection.MALFORMED)
    return value


def _words(value: Any) -> list[str]:
    """A claim holding names: space-separated (``scope``) or a list of strings (``scp``, ``permissions``)."""
    if value is None:
        return []
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list) and all(isinstance(word, str) for word in value):
        return value
    raise _Refused(Rejection.MALFORMED)


def _failure(error: jwt.PyJWTError) -> Rejection:
    """The reason class of one of PyJWT's exceptions (subclasses before their bases)."""
    reasons: tuple[tuple[type[jwt.PyJWTError], Rejection], ...] = (
        (jwt.ExpiredSignatureError, Rejection.EXPIRED),
        (jwt.ImmatureSignatureError, Rejection.NOT_YET_VALID),
        (jwt.InvalidAudienceError, Rejection.WRONG_AUDIENCE),
        (jwt.InvalidIssuerError, Rejection.WRONG_ISSUER),
        (jwt.InvalidSignatureError, Rejection.BAD_SIGNATURE),
        (jwt.InvalidAlgorithmError, Rejection.ALGORITHM_NOT_ALLOWED),
        (jwt.MissingRequiredClaimError, Rejection.MISSING_CLAIM),
        (jwt.InvalidKeyError, Rejection.ALGORITHM_NOT_ALLOWED),
    )
    return next((reason for kind, reason in reasons if isinstance(error, kind)), Rejection.MALFORMED)


class _Issuer:
    """One ``auth.jwt`` entry: its keys (fetched or read from a file) and the claims it maps to a principal."""

    def __init__(self, config: JwtIssuerConfig, where: str) -> None:
        self.config = config
        self._providers = None if "*" in config.providers else frozenset(config.providers)
        self._keys: dict[str | None, dict[str, Any]] | None = None
        self._prepared: dict[tuple[str | None, str], jwt.PyJWK] = {}
        self._fetched_at = 0.0
        self._last_attempt: float | None = None
        self._failed_at: float | None = None
        """When the last fetch attempt failed (``None`` once one succeeds)."""
        self._lock = asyncio.Lock()
        self._scheduled: asyncio.Task[None] | None = None
        """The refresh of stale keys under way, which requests holding their key do not wait for."""
        self._ssl: ssl.SSLContext | None = None
        self.fetches = 0
        """Fetches of ``jwksUrl`` attempted (for tests and the log)."""
        if config.jwksFile is not None:
            self._keys = _read_jwks_file(config.jwksFile, f"{where}.jwksFile")

    async def key(self, kid: str | None, alg: str) -> jwt.PyJWK:
        """The issuer's key ``kid`` bound to ``alg``; fetches the JWKS when none is held or ``kid`` is unknown
        (waiting for it), and when the keys held are stale (in the background: they serve meanwhile)."""
        if self.config.jwksUrl is not None:
            if self._keys is None:
                await self._refresh()
            elif self._stale(time.monotonic()) and (self._scheduled is None or self._scheduled.done()):
                self._scheduled = asyncio.create_task(self._refresh(scheduled=True))
        if self._keys is None:
            raise _Refused(Rejection.KEYS_UNAVAILABLE)
        jwk = self._find(kid)
        if jwk is None and self.config.jwksUrl is not None:
            await self._refresh()  # perhaps a key the issuer has just started to sign with
            jwk = self._find(kid)
        if jwk is None:
            raise _Refused(Rejection.UNKNOWN_KEY)
        prepared = self._prepared.get((kid, alg))
        if prepared is None:
            declared = jwk.get("alg")
            if declared is not None and declared != alg:
                raise _Refused(Rejection.ALGORITHM_NOT_ALLOWED)
            try:
                prepared = jwt.PyJWK(jwk, algorithm=alg)
            except jwt.PyJWTError:  # a key of another type than the algorithm's (an RSA key for ES256)
                raise _Refused(Rejection.ALGORITHM_NOT_ALLOWED) from None
            self._prepared[(kid, alg)] = prepared
        return prepared

    def _find(self, kid: str | None) -> dict[str, Any] | None:
        keys = self._keys or {}
        if kid is None and len(keys) == 1:
            return next(iter(keys.values()))  # a token without kid, from an issuer with one key
        return keys.get(kid)

    async def refreshed(self) -> None:
        """Wait for the background fetch of stale keys, if one is under way."""
        scheduled = self._scheduled
        if scheduled is not None:
            await asyncio.shield(scheduled)

    def _stale(self, now: float) -> bool:
        return now - self._fetched_at >= self.config.jwksCacheSeconds

    async def _refresh(self, *, scheduled: bool = False) -> None:
        """Fetch the JWKS. For a key not held, unless a fetch was attempted within ``jwksMinRefetchSeconds``
        (made-up key ids cannot have the host fetch per request); when ``scheduled`` (the keys held are
        stale), unless they are fresh again or a fetch failed within that time (a down issuer is not
        hammered). So a retired key stops verifying new tokens ``jwksCacheSeconds`` after the last fetch,
        once the fetch that follows completes, whatever ``jwksMinRefetchSeconds`` is."""
        async with self._lock:  # one fetch at a time; those who waited find it done and the limit reached
            now = time.monotonic()
            limit = self.config.jwksMinRefetchSeconds
            if scheduled:
                if not self._stale(now) or (self._failed_at is not None and now - self._failed_at < limit):
                    return
            elif self._last_attempt is not None and now - self._last_attempt < limit:
                return
            self._last_attempt = now
            self.fetches += 1
            url = self.config.jwksUrl
            assert url is not None
            try:
                keys = parse_jwks(await self._fetch(url))
            # Whatever went wrong (HTTP, TLS, DNS, a bad document), a token is refused or served by the keys
            # held: never a 500.
            except Exception as error:
                self._failed_at = time.monotonic()
                held = "the keys fetched before stay in use" if self._keys is not None else "no keys yet"
                log.warning(
                    "JWKS of issuer %s not fetched from %s: %s: %s (%s)",
                    self.config.issuer,
                    url,
                    type(error).__name__,
                    error,
                    held,
                )
                return
            self._keys, self._fetched_at, self._failed_at = keys, time.monotonic(), None
            self._prepared.clear()
            log.info("JWKS of issuer %s fetched from %s: %d signing keys", self.config.issuer, url, len(keys))

    async def _fetch(self, url: str) -> bytes:
        if self._ssl is None:  # loading the CA bundle blocks: once, off the event loop (honours SSL_CERT_FILE)
            self._ssl = await asyncio.to_thread(httpx.create_ssl_context)
        loopback = urlsplit(url).scheme == "http"  # config allows plain HTTP only from loopback: no proxy then
        async with (
            httpx.AsyncClient(
                verify=self._ssl, timeout=JWKS_FETCH_TIMEOUT_S, follow_redirects=False, trust_env=not loopback
            ) as client,
            client.stream("GET", url, headers={"Accept": "application/json"}) as response,
        ):
            if response.status_code != 200:
                raise _JwksError(f"HTTP {response.status_code}")
            body = bytearray()
            async for chunk in response.aiter_bytes():
                body += chunk
                if len(body) > JWKS_MAX_BYTES:
                    raise _JwksError(f"larger than {JWKS_MAX_BYTES} bytes")
        return bytes(body)

    def principal(self, claims: dict[str, Any]) -> SessionPrincipal:
        config = self.config
        subject = claims.get(config.subjectClaim)
        if subject is None:
            raise _Refused(Rejection.MISSING_CLAIM)
        if not isinstance(subject, str) or not subject:
            raise _Refused(Rejection.MALFORMED)
        words = _words(claims.get(config.grantsClaim))
        grants: frozenset[SessionGrant] = frozenset(grant for grant in ALL_GRANTS if f"{GRANT_PREFIX}{grant}" in words)
        providers = self._providers
        if config.providersClaim is not None:
            named = _words(claims.get(config.providersClaim))
            if "*" not in named:
                providers = frozenset(named) if providers is None else providers & frozenset(named)
        return SessionPrincipal(subject=config.subjectPrefix + subject, providers=providers, grants=grants)


def _read_jwks_file(path: str, where: str) -> dict[str | None, dict[str, Any]]:
    try:
        keys = parse_jwks(Path(path).read_bytes())
        for jwk in keys.values():
            jwt.PyJWK(jwk)  # every key must be one PyJWT can use
    except OSError as error:
        raise ConfigError([f"{where}: cannot read {path}: {error.strerror}"]) from None
    except _JwksError as error:
        raise ConfigError([f"{where}: {path}: {error}"]) from None
    except jwt.PyJWTError as error:
        raise ConfigError([f"{where}: {path}: a key PyJWT cannot use ({type(error).__name__})"]) from None
    return keys


class JwtIssuers:
    """The configured issuers, and the tokens verified recently."""

    def __init__(self, configs: list[JwtIssuerConfig], previous: JwtIssuers | None = None) -> None:
        kept = list(previous._by_issuer.values()) if previous is not None else []
        self._by_issuer: dict[str, _Issuer] = {}
        for index, config in enumerate(configs):
            # An issuer configured as before keeps its fetched keys and fetch limit; a file is read again.
            reused = next((old for old in kept if old.config == config and config.jwksUrl is not None), None)
            self._by_issuer[config.issuer] = reused or _Issuer(config, f"auth.jwt[{index}]")
        self._verified: OrderedDict[bytes, tuple[SessionPrincipal, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._by_issuer)

    def issuers(self) -> Iterable[_Issuer]:
        return self._by_issuer.values()

    async def refreshed(self) -> None:
        """Wait for every issuer's background fetch of stale keys under way (what tests wait on)."""
        for issuer in self._by_issuer.values():
            await issuer.refreshed()

    def cached(self, digest: bytes) -> SessionPrincipal | None:
        """The principal of a token verified before (its SHA-256 is ``digest``) whose ``exp`` has not passed."""
        verified = self._verified.get(digest)
        if verified is None:
            return None
        principal, until = verified
        if time.time() < until:
            self._verified.move_to_end(digest)
            return principal
        del self._verified[digest]
        return None

    async def verify(self, token: str, digest: bytes) -> SessionPrincipal:
        """The principal of a JWT (its SHA-256 is ``digest``); raises ``Unauthenticated`` with the reason."""
        principal = self.cached(digest)
        if principal is not None:
            return principal
        try:
            principal, until = await self._verify(token)
        except _Refused as refused:
            raise refused.reason.error() from None
        self._verified[digest] = (principal, until)
        if len(self._verified) > VERIFIED_TOKENS_MAX:
            self._verified.popitem(last=False)
        return principal

    async def _verify(self, token: str) -> tuple[SessionPrincipal, float]:
        parts = token.split(".")
        if len(parts) != 3:
            raise _Refused(Rejection.MALFORMED)
        header_part, payload_part, _ = parts
        header, unverified = _segment(header_part), _segment(payload_part)
        iss = unverified.get("iss")
        if iss is None:
            raise _Refused(Rejection.MISSING_CLAIM)
        issuer = self._by_issuer.get(iss) if isinstance(iss, str) else None
        if issuer is None:
            raise _Refused(Rejection.WRONG_ISSUER)
        config = issuer.config
        alg, kid = header.get("alg"), header.get("kid")
        if not isinstance(alg, str) or not (kid is None or isinstance(kid, str)):
            raise _Refused(Rejection.MALFORMED)
        if alg not in config.algorithms:
            raise _Refused(Rejection.ALGORITHM_NOT_ALLOWED)
        key = await issuer.key(kid, alg)
        try:
            claims = jwt.decode(
                token,
                key,
                algorithms=[alg],
                audience=config.audience,
                issuer=config.issuer,
                leeway=config.leewaySeconds,
                options={"require": ["exp", "iss", "aud"]},
            )
        except jwt.PyJWTError as error:
            raise _Refused(_failure(error)) from None
        except Exception as error:  # never a 500 for a token: PyJWT should have raised one of its own
            log.warning("a JWT of issuer %s could not be verified: %s", config.issuer, type(error).__name__)
            raise _Refused(Rejection.MALFORMED) from None
        return issuer.principal(claims), float(claims["exp"]) + config.leewaySeconds
