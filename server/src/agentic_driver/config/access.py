"""Who may reach the host, and how: host JSON ``tokens``, ``auth.jwt``, ``tls`` and ``metrics``."""

from __future__ import annotations

import ipaddress
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import BeforeValidator, Field, field_validator, model_validator

from .common import SessionGrantName, _Closed


class TokenConfig(_Closed):
    """A bearer token with exactly one secret (``token``, ``tokenEnv``, ``tokenSha256``), compared in constant time."""

    subject: Annotated[str, Field(min_length=1)]
    """Who the token speaks for: it owns the sessions the token creates."""
    token: Annotated[str, Field(min_length=16)] | None = None
    """The secret itself (fine for local use; prefer ``tokenEnv`` or ``tokenSha256``); no secret is ever logged."""
    tokenEnv: Annotated[str, Field(min_length=1)] | None = None
    """The name of an environment variable that holds the secret."""
    tokenSha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None
    """The hex SHA-256 of the secret; the host never sees the secret itself."""
    providers: list[str]
    """Provider instance ids this token may use; ``["*"]`` means every instance."""
    sessions: list[SessionGrantName] = []
    """Session grants: any of create, read, continue, delete."""

    @model_validator(mode="after")
    def _exactly_one_secret(self) -> TokenConfig:
        given = [name for name in ("token", "tokenEnv", "tokenSha256") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of token, tokenEnv, tokenSha256")
        return self

    def __repr__(self) -> str:  # never show a secret
        return f"TokenConfig(subject={self.subject!r}, providers={self.providers!r}, sessions={self.sessions!r})"

    __str__ = __repr__


JWT_ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")
"""The signature algorithms an access token may use: asymmetric only, so nothing the host holds can sign one."""

JwtAlgorithmName = Literal["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"]


def _asymmetric_algorithm(value: Any) -> Any:
    """Refuse ``none`` and HMAC by name, saying why, before the literal check would only list the accepted ones."""
    if isinstance(value, str) and value not in JWT_ALGORITHMS:
        if value.lower() == "none":
            raise ValueError("'none' is never accepted: an unsigned token proves nothing")
        if value.upper().startswith("HS"):
            raise ValueError(
                f"{value!r} is refused: HMAC verifies with a shared secret, and beside a JWKS that 'secret' would be "
                "a public key anyone can read; only RS*, PS*, ES* and EdDSA are accepted"
            )
        raise ValueError(f"{value!r} is not an accepted algorithm (one of {', '.join(JWT_ALGORITHMS)})")
    return value


def _listed(value: Any) -> Any:
    return [value] if isinstance(value, str) else value


def _is_loopback_host(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class JwtIssuerConfig(_Closed):
    """An identity provider whose JWT access tokens the host accepts (docs/host-config.md, JWT access tokens).

    A token is checked against the entry its ``iss`` names: an algorithm of ``algorithms``, a signature by one of
    the issuer's keys, ``exp`` (required), ``nbf`` and ``iat``, and ``aud``; its claims then give the principal."""

    issuer: Annotated[str, Field(min_length=1)]
    """The ``iss`` the tokens carry, exactly (Keycloak: ``https://HOST/realms/REALM``; Auth0:
    ``https://TENANT.auth0.com/``, with its trailing slash)."""
    audience: Annotated[list[Annotated[str, Field(min_length=1)]], BeforeValidator(_listed), Field(min_length=1)]
    """The audience this host is, or a list of them (a string is a list of one): a token's ``aud`` must name one."""
    jwksUrl: Annotated[str, Field(pattern=r"^https?://")] | None = None
    """Where the issuer publishes its keys (JWKS), over HTTPS (plain HTTP only from a loopback address). Fetched on
    first use, cached for ``jwksCacheSeconds`` and fetched again when a token names a key id it does not hold, at
    most once per ``jwksMinRefetchSeconds``; redirects are not followed."""
    jwksFile: Annotated[str, Field(min_length=1)] | None = None
    """A JWKS file instead of ``jwksUrl``, read at start and again on every reload (SIGHUP)."""
    algorithms: Annotated[
        list[Annotated[JwtAlgorithmName, BeforeValidator(_asymmetric_algorithm)]], Field(min_length=1)
    ]
    """The algorithms the issuer signs with (explicit: a token with any other ``alg`` is refused). Asymmetric only:
    ``none`` and HS256/384/512 are refused here."""
    leewaySeconds: Annotated[int, Field(ge=0, le=300)] = 30
    """Clock skew tolerated on ``exp``, ``nbf`` and ``iat``."""
    subjectClaim: Annotated[str, Field(min_length=1)] = "sub"
    """The claim that names the principal's subject (it owns the sessions the token creates)."""
    subjectPrefix: str = ""
    """Put before every subject from this issuer, e.g. ``"kc:"``, so that two issuers (or a static token) never
    name the same subject and so share its sessions."""
    grantsClaim: Annotated[str, Field(min_length=1)] = "scope"
    """The claim that holds the session grants, as space-separated words or a list of strings:
    ``sessions:create``, ``sessions:read``, ``sessions:continue``, ``sessions:delete`` (other words are ignored)."""
    providersClaim: Annotated[str, Field(min_length=1)] | None = None
    """A claim listing the provider instances the token may use (space-separated or a list), within
    ``providers``; absent: every token of the issuer may use all of ``providers``."""
    providers: list[str]
    """Provider instance ids this issuer's tokens may use; ``["*"]`` means every instance."""
    jwksCacheSeconds: Annotated[int, Field(ge=1)] = 300
    """How long fetched keys are used before they are fetched again, in the background (the first request
    that finds them stale is still served by them): a key the issuer retired verifies new tokens until that
    fetch completes. While the issuer cannot be reached the keys fetched before stay in use; a token already
    verified is accepted until its ``exp`` plus ``leewaySeconds``."""
    jwksMinRefetchSeconds: Annotated[int, Field(ge=1)] = 30
    """The least time between two fetches for a key id the host does not hold (made-up key ids cannot have the
    host fetch on every request), and between a failed fetch and the next; it never delays the fetch of stale
    keys after a successful one."""

    @field_validator("jwksUrl")
    @classmethod
    def _https_unless_loopback(cls, value: str | None) -> str | None:
        if value is None:
            return value
        parts = urlsplit(value)
        if not parts.hostname:
            raise ValueError("not a URL with a host")
        if parts.scheme != "https" and not _is_loopback_host(parts.hostname):
            raise ValueError("keys are fetched over HTTPS only (plain HTTP only from a loopback address)")
        return value

    @model_validator(mode="after")
    def _one_key_source(self) -> JwtIssuerConfig:
        if (self.jwksUrl is None) == (self.jwksFile is None):
            raise ValueError("give exactly one of jwksUrl, jwksFile")
        return self


class AuthConfig(_Closed):
    """Bearer tokens besides the static ``tokens``: JWT access tokens from identity providers. ``tokens`` and this
    block are re-read on SIGHUP (``agentic-driver reload``) without a restart."""

    jwt: list[JwtIssuerConfig] = []
    """The issuers whose access tokens are accepted, one entry each, each with its own ``issuer``."""


class TlsConfig(_Closed):
    """How bearer tokens are protected on the wire: the host's own TLS, or a proxy's in front."""

    certFile: Annotated[str, Field(min_length=1)] | None = None
    """PEM certificate chain (server certificate first); with ``keyFile`` the host serves HTTPS (TLS 1.2+)."""
    keyFile: Annotated[str, Field(min_length=1)] | None = None
    """PEM private key of ``certFile`` (unencrypted: protect the file, not the key, with permissions)."""
    terminatedByProxy: bool = False
    """The operator states that a proxy in front terminates TLS, so plain HTTP may be served on a
    non-loopback address (to that proxy only). ``serve --tls-cert``/``--tls-key`` and ``--behind-tls-proxy``
    override this block (docs/operating.md, TLS where tokens travel)."""

    @model_validator(mode="after")
    def _one_way(self) -> TlsConfig:
        if (self.certFile is None) != (self.keyFile is None):
            raise ValueError("give both certFile and keyFile, or neither")
        if self.certFile is not None and self.terminatedByProxy:
            raise ValueError("give certFile/keyFile (the host terminates TLS) or terminatedByProxy, not both")
        return self

    @property
    def direct(self) -> bool:
        """Whether the host itself serves TLS."""
        return self.certFile is not None


class ListenConfig(_Closed):
    """A separate address for ``/metrics`` and ``/healthz`` (the API's then answers ROUTE_NOT_FOUND there)."""

    host: Annotated[str, Field(min_length=1)] = "127.0.0.1"
    """The address to bind."""
    port: Annotated[int, Field(ge=1, le=65535)]
    """The port to bind."""


class MetricsConfig(_Closed):
    """Who may read ``/metrics`` and where: at most one of the three secrets (as for ``tokens[]``), as a bearer."""

    token: Annotated[str, Field(min_length=16)] | None = None
    """A bearer secret ``/metrics`` requires, at least 16 characters (fine for local use; prefer ``tokenEnv`` or
    ``tokenSha256``). An API token does not open ``/metrics``."""
    tokenEnv: Annotated[str, Field(min_length=1)] | None = None
    """The name of an environment variable that holds that secret."""
    tokenSha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None
    """The hex SHA-256 of that secret."""
    listen: ListenConfig | None = None
    """Serve ``/metrics`` on this separate address only (and no longer on the API's)."""

    @model_validator(mode="after")
    def _at_most_one_secret(self) -> MetricsConfig:
        given = [name for name in ("token", "tokenEnv", "tokenSha256") if getattr(self, name) is not None]
        if len(given) > 1:
            raise ValueError("give at most one of token, tokenEnv, tokenSha256")
        return self

    @property
    def protected(self) -> bool:
        return self.token is not None or self.tokenEnv is not None or self.tokenSha256 is not None

    def __repr__(self) -> str:  # never show a secret
        return f"MetricsConfig(protected={self.protected}, listen={self.listen!r})"

    __str__ = __repr__
