"""A real OpenID provider for tests: panva's certified ``oidc-provider`` (``provider.mjs``) on loopback.

``start_idp()`` runs it as a Node subprocess on a port the system picks, over HTTPS with a trustme CA (a host
trusts it through ``SSL_CERT_FILE``: ``Idp.host_env()``), waits for its ready line on stdout (no sleep), reads
its discovery document as an application would, and stops it at the end::

    with start_idp(tmp_path) as idp:
        token = idp.token()                      # client_credentials at the token endpoint, aud = idp.audience
        other = idp.token(audience=idp.other_audience)
        expiring = idp.token(client=SHORT_LIVED) # expires in idp.short_ttl_seconds
        idp.rotate()                             # a new key, published and signing; the old one still published
        idp.retire_old()                         # only the signing key is published from now on

Access tokens are RFC 9068 JWTs (``typ: at+jwt``): ``iss`` the issuer, ``aud`` the requested resource
indicator, ``sub`` and ``client_id`` the client, ``scope`` the granted words. ``Idp.host_issuer()`` is the
host JSON ``auth.jwt`` entry that trusts them. See README.md in this directory.
"""

from __future__ import annotations

import json
import secrets
import shutil
import signal
import ssl
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import httpx
import trustme
from agentic_driver_testing import stop_process
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import ECAlgorithm, RSAAlgorithm

__all__ = [
    "ALL_SCOPES",
    "APP",
    "AUDIENCE",
    "IDP_DIR",
    "OTHER_AUDIENCE",
    "SHORT_LIVED",
    "Idp",
    "IdpError",
    "IdpNotInstalled",
    "JwksRequest",
    "check_installed",
    "start_idp",
]

IDP_DIR = Path(__file__).resolve().parent
PROVIDER = IDP_DIR / "provider.mjs"
ALL_SCOPES = "sessions:create sessions:read sessions:continue sessions:delete"
AUDIENCE = "https://agentic-driver.test/api"
"""The resource indicator (``aud``) of the tokens a host under test accepts."""
OTHER_AUDIENCE = "https://another-api.test/"
"""A second resource server of the same issuer: its tokens are for another API."""
APP = "agentic-driver-app"
"""The confidential client an application authenticates as; its tokens live ``token_ttl_seconds``."""
SHORT_LIVED = "agentic-driver-app-short-lived"
"""A second client whose tokens live ``short_ttl_seconds`` (to see them expire)."""

READY_TIMEOUT_S = 20.0
EVENT_TIMEOUT_S = 10.0
REQUEST_TIMEOUT_S = 10.0
KEY_ALGORITHMS = ("RS256", "ES256")

Algorithm = Literal["RS256", "ES256"]


class IdpNotInstalled(RuntimeError):
    """Node or the pinned oidc-provider is missing: the message says how to install it."""


class IdpError(RuntimeError):
    """The provider exited, refused a request or did not answer in time; the message ends with its log."""


def check_installed() -> None:
    """Raise ``IdpNotInstalled`` unless ``node`` runs and node_modules holds the oidc-provider the lock pins."""
    how = "`make test-python` (or `make setup-test`) installs it; by hand: `cd server/tests/idp && npm ci`"
    if shutil.which("node") is None:
        raise IdpNotInstalled("`node` is not on PATH: the tests' OpenID provider (server/tests/idp) needs Node.js 20+")
    lock = json.loads((IDP_DIR / "package-lock.json").read_text(encoding="utf-8"))
    pinned = lock["packages"]["node_modules/oidc-provider"]["version"]
    installed_manifest = IDP_DIR / "node_modules" / "oidc-provider" / "package.json"
    if not installed_manifest.is_file():
        raise IdpNotInstalled(f"oidc-provider {pinned} is not installed in {IDP_DIR / 'node_modules'}: {how}")
    installed = json.loads(installed_manifest.read_text(encoding="utf-8"))["version"]
    if installed != pinned:
        raise IdpNotInstalled(
            f"{IDP_DIR / 'node_modules'} holds oidc-provider {installed}, the lock pins {pinned}: {how}"
        )


@dataclass
class _Key:
    kid: str
    jwk: dict[str, Any]
    """The private JWK (only the provider's JWKS file holds it; the provider publishes the public half)."""


def _new_key(kid: str, algorithm: Algorithm) -> _Key:
    if algorithm == "RS256":
        jwk = json.loads(RSAAlgorithm.to_jwk(rsa.generate_private_key(public_exponent=65537, key_size=2048)))
    else:
        jwk = json.loads(ECAlgorithm.to_jwk(ec.generate_private_key(ec.SECP256R1())))
    jwk.update(kid=kid, alg=algorithm, use="sig")
    return _Key(kid, jwk)


@dataclass(frozen=True)
class JwksRequest:
    """One request for the provider's JWKS."""

    generation: int
    """The key generation it was answered from (0: the first keys; each ``publish_next``, ``rotate`` and
    ``retire_old`` adds one)."""
    kids: list[str]
    """The key ids it was answered with."""
    at: float
    """When it arrived at the provider, on the clock of ``time.monotonic()`` (CLOCK_MONOTONIC: the provider
    stamps it, so a busy test process reading the line late does not shift it)."""


def _jwks_request(event: dict[str, Any]) -> JwksRequest:
    return JwksRequest(int(event["generation"]), list(event["kids"]), float(event["at"]))


@dataclass
class _Client:
    client_id: str
    client_secret: str
    ttl_seconds: int


@dataclass
class Idp:
    """A running provider: where it is, its clients, its keys, and what it printed."""

    issuer: str
    discovery: dict[str, Any]
    """Its ``/.well-known/openid-configuration``, read as an application reads it."""
    ca_file: Path
    """The PEM of the CA its TLS certificate chains to (``SSL_CERT_FILE`` for a host, ``NODE_EXTRA_CA_CERTS``
    for Node, ``verify=`` for httpx)."""
    ssl_context: ssl.SSLContext
    algorithm: Algorithm
    audience: str
    other_audience: str
    short_ttl_seconds: int
    token_ttl_seconds: int
    log_path: Path
    clients: dict[str, _Client]
    issued: list[str] = field(default_factory=list)
    """Every access token issued through ``token``, for leak scans (never print them)."""
    _process: subprocess.Popen[bytes] | None = None
    _jwks_path: Path | None = None
    _keys: list[_Key] = field(default_factory=list)
    """The keys published, the signing one first (the order of the provider's JWKS file)."""
    _next_kid: int = 1
    _published_next: str | None = None
    """The kid ``publish_next`` published and no key signs with yet."""
    _generation: int = 0
    _events: list[dict[str, Any]] = field(default_factory=list)
    """The JSON lines the provider printed on stdout, in order."""
    _session: httpx.Client | None = None
    _changed: threading.Condition = field(default_factory=threading.Condition)

    # -- where ---------------------------------------------------------------------

    @property
    def jwks_uri(self) -> str:
        return str(self.discovery["jwks_uri"])

    @property
    def token_endpoint(self) -> str:
        return str(self.discovery["token_endpoint"])

    def host_issuer(self, **overrides: Any) -> dict[str, Any]:
        """A host JSON ``auth.jwt`` entry that accepts this provider's tokens for ``audience``."""
        entry: dict[str, Any] = {
            "issuer": self.issuer,
            "audience": self.audience,
            "jwksUrl": self.jwks_uri,
            "algorithms": [self.algorithm],
            "providers": ["*"],
        }
        entry.update(overrides)
        return entry

    def host_env(self) -> dict[str, str]:
        """The environment a host needs to trust the provider's certificate."""
        return {"SSL_CERT_FILE": str(self.ca_file)}

    # -- tokens --------------------------------------------------------------------

    def http(self) -> httpx.Client:
        """A new httpx client that trusts the provider's CA (and no proxy from the environment); close it."""
        return httpx.Client(verify=self.ssl_context, timeout=REQUEST_TIMEOUT_S, trust_env=False)

    def request_token(self, client: str = APP, **form: str) -> httpx.Response:
        """POST the token endpoint as ``client`` (HTTP Basic, RFC 6749 2.3.1) with ``grant_type=client_credentials``
        and ``form``; the answer, whatever its status."""
        registered = self.clients[client]
        if self._session is None:  # one keep-alive connection for every token request (a TLS handshake each: slow)
            self._session = self.http()
        return self._session.post(
            self.token_endpoint,
            auth=(registered.client_id, registered.client_secret),
            data={"grant_type": "client_credentials", **form},
            headers={"Accept": "application/json"},
        )

    def token(self, audience: str | None = None, scope: str = ALL_SCOPES, client: str = APP) -> str:
        """An access token for ``audience`` (default: ``self.audience``) with ``scope``, as an application gets one."""
        response = self.request_token(client, resource=audience or self.audience, scope=scope)
        if response.status_code != 200:
            raise IdpError(f"the token endpoint answered {response.status_code}: {response.text[:300]}")
        body = response.json()
        assert body["token_type"] == "Bearer", body["token_type"]
        token = str(body["access_token"])
        self.issued.append(token)
        return token

    # -- keys ----------------------------------------------------------------------

    @property
    def signing_kid(self) -> str:
        return self._keys[0].kid

    @property
    def published_kids(self) -> list[str]:
        return [key.kid for key in self._keys]

    def publish_next(self) -> str:
        """Publish a new key without signing with it yet (a careful IdP's first step); its kid."""
        key = self._make_key()
        self._apply([self._keys[0], key, *self._keys[1:]])
        return key.kid

    def rotate(self) -> str:
        """Sign with a new key (the one ``publish_next`` published, else a new one), the old keys still published;
        the signing kid. The issuer, its address and its clients stay."""
        ahead = self._keys[1] if len(self._keys) > 1 and self._keys[1].kid == self._published_next else None
        key = ahead or self._make_key()
        self._apply([key, *(k for k in self._keys if k is not key)])
        return key.kid

    def retire_old(self) -> list[str]:
        """Stop publishing every key but the signing one; the kids retired."""
        retired = self.published_kids[1:]
        self._apply(self._keys[:1])
        return retired

    def jwks_requests(self) -> list[JwksRequest]:
        """Every request for the JWKS read so far from the provider's output (by anyone), in order. A request
        may have been answered before its line is read: ``wait_for_jwks_request`` waits for one; every line
        printed before the provider's answer to a key change has been read when that change returns."""
        with self._changed:
            return [_jwks_request(e) for e in self._events if e["event"] == "jwks"]

    def wait_for_jwks_request(
        self, matches: Callable[[JwksRequest], bool], timeout_s: float = EVENT_TIMEOUT_S
    ) -> JwksRequest:
        """The first request for the JWKS that ``matches``, once its line is read (bounded: ``IdpError``)."""
        return _jwks_request(self._wait(lambda e: e["event"] == "jwks" and matches(_jwks_request(e)), timeout_s))

    @property
    def generation(self) -> int:
        """How many key changes (``publish_next``, ``rotate``, ``retire_old``) there were: 0 at start."""
        return self._generation

    def _make_key(self) -> _Key:
        key = _new_key(f"key-{self._next_kid}", self.algorithm)
        self._next_kid += 1
        self._published_next = key.kid
        return key

    def _write_jwks(self, keys: list[_Key]) -> None:
        assert self._jwks_path is not None
        staged = self._jwks_path.with_suffix(".tmp")
        staged.write_text(json.dumps({"keys": [key.jwk for key in keys]}), encoding="utf-8")
        staged.replace(self._jwks_path)  # the provider never reads a half-written file

    def _apply(self, keys: list[_Key]) -> None:
        """Write the JWKS file, SIGHUP the provider, wait until it serves exactly these keys."""
        assert self._process is not None
        self._write_jwks(keys)
        self._generation += 1
        generation = self._generation
        self._process.send_signal(signal.SIGHUP)
        event = self._wait(lambda e: e["event"] in ("keys", "keys-refused") and e["generation"] == generation)
        if event["event"] == "keys-refused":
            raise IdpError(f"the provider refused the new keys: {event['message']}\n{self._log_tail()}")
        assert event["kids"] == [key.kid for key in keys] and event["signing"] == keys[0].kid, event
        self._keys = keys
        if self._published_next not in self.published_kids[1:]:
            self._published_next = None

    # -- the process -------------------------------------------------------------------

    def _read_stdout(self, stream: Any, log: Any) -> None:
        for raw in stream:
            line = raw.decode("utf-8", errors="replace").rstrip("\n")
            log.write(line + "\n")
            log.flush()
            if line.startswith("{"):
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                with self._changed:
                    self._events.append(event)
                    self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()  # the process ended: waiters look again

    def _wait(self, matches: Callable[[dict[str, Any]], bool], timeout_s: float = EVENT_TIMEOUT_S) -> dict[str, Any]:
        assert self._process is not None
        deadline = time.monotonic() + timeout_s
        with self._changed:
            while True:
                found = next((e for e in self._events if matches(e)), None)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                if self._process.poll() is not None or left <= 0:
                    why = "exited" if self._process.poll() is not None else f"printed nothing awaited in {timeout_s} s"
                    raise IdpError(f"the OpenID provider {why}; its log:\n{self._log_tail()}")
                self._changed.wait(min(left, 0.5))

    def _log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


@contextmanager
def start_idp(
    workdir: Path,
    *,
    algorithm: Algorithm = "RS256",
    audience: str = AUDIENCE,
    other_audience: str = OTHER_AUDIENCE,
    token_ttl_seconds: int = 300,
    short_ttl_seconds: int = 2,
) -> Iterator[Idp]:
    """Run the provider with one signing key until the block ends; files (config, keys, TLS, log) in ``workdir``.

    Raises ``IdpNotInstalled`` (never skips) when Node or the pinned oidc-provider is missing."""
    check_installed()
    if algorithm not in KEY_ALGORITHMS:
        raise ValueError(f"algorithm must be one of {KEY_ALGORITHMS}")
    workdir.mkdir(parents=True, exist_ok=True)
    ca = trustme.CA()
    ca_file = workdir / "idp-ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    leaf = ca.issue_cert("127.0.0.1", "localhost")
    cert_file, key_file = workdir / "idp-cert.pem", workdir / "idp-key.pem"
    cert_file.write_bytes(b"".join(blob.bytes() for blob in leaf.cert_chain_pems))
    leaf.private_key_pem.write_to_path(str(key_file))
    key_file.chmod(0o600)

    clients = {
        APP: _Client(APP, secrets.token_urlsafe(24), token_ttl_seconds),
        SHORT_LIVED: _Client(SHORT_LIVED, secrets.token_urlsafe(24), short_ttl_seconds),
    }
    idp = Idp(
        issuer="",
        discovery={},
        ca_file=ca_file,
        ssl_context=ssl.create_default_context(cafile=str(ca_file)),
        algorithm=algorithm,
        audience=audience,
        other_audience=other_audience,
        short_ttl_seconds=short_ttl_seconds,
        token_ttl_seconds=token_ttl_seconds,
        log_path=workdir / "idp.log",
        clients=clients,
        _jwks_path=workdir / "idp-jwks.json",
    )
    first = idp._make_key()
    idp._published_next = None
    idp._write_jwks([first])
    idp._keys = [first]
    config = {
        "host": "127.0.0.1",
        "port": 0,
        "tls": {"certFile": str(cert_file), "keyFile": str(key_file)},
        "jwksFile": str(idp._jwks_path),
        "cookieKey": secrets.token_urlsafe(32),
        "accessTokenTTL": token_ttl_seconds,
        "clients": [
            {
                "client_id": c.client_id,
                "client_secret": c.client_secret,
                "scope": ALL_SCOPES,
                "token_endpoint_auth_method": "client_secret_basic",
                "accessTokenTTL": c.ttl_seconds,
            }
            for c in clients.values()
        ],
        "resources": [{"indicator": aud, "scope": ALL_SCOPES} for aud in (audience, other_audience)],
    }
    config_path = workdir / "idp-config.json"
    config_path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    config_path.chmod(0o600)  # it holds the client secrets

    with idp.log_path.open("ab") as stderr_log, idp.log_path.open("a", encoding="utf-8") as stdout_log:
        process = subprocess.Popen(
            ["node", str(PROVIDER), str(config_path)],
            cwd=IDP_DIR,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr_log,
        )
        idp._process = process
        assert process.stdout is not None
        reader = threading.Thread(target=idp._read_stdout, args=(process.stdout, stdout_log), daemon=True)
        reader.start()
        try:
            ready = idp._wait(lambda e: e["event"] == "ready", READY_TIMEOUT_S)
            idp.issuer = str(ready["issuer"])
            with idp.http() as http:
                discovery = http.get(f"{idp.issuer}/.well-known/openid-configuration")
            if discovery.status_code != 200:
                raise IdpError(f"discovery answered {discovery.status_code}\n{idp._log_tail()}")
            idp.discovery = discovery.json()
            if idp.discovery.get("issuer") != idp.issuer:
                raise IdpError(f"discovery names issuer {idp.discovery.get('issuer')!r}, not {idp.issuer!r}")
            yield idp
        finally:
            if idp._session is not None:
                idp._session.close()
            stop_process(process)
            reader.join(timeout=5)
            process.stdout.close()
