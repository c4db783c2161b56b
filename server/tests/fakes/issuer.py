"""A fake identity provider's signing side: keys made in the test, their JWKS, and access tokens.

``FakeIssuer`` holds RSA, EC and Ed25519 keys (``cryptography``) and signs tokens with PyJWT, as an IdP
would; ``forged`` builds the tokens no honest IdP issues (``alg: none``, HS256 keyed with the public key's
PEM, a tampered payload). ``serve_jwks`` publishes the current JWKS over HTTPS on a free loopback port (a
trustme CA's certificate) and counts the fetches, so key rotation and the refetch limit can be watched.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import ssl
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Literal

import jwt
import trustme
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from jwt.algorithms import ECAlgorithm, OKPAlgorithm, RSAAlgorithm

KeyKind = Literal["RSA", "EC", "Ed25519"]
DEFAULT_ALG: dict[KeyKind, str] = {"RSA": "RS256", "EC": "ES256", "Ed25519": "EdDSA"}
ALL_SCOPES = "sessions:create sessions:read sessions:continue sessions:delete"


NEGATIVE_MATRIX: dict[str, str] = {
    "expired": "expired",
    "not-before-in-the-future": "not yet valid",
    "issued-in-the-future": "not yet valid",
    "wrong-audience": "wrong audience",
    "no-audience": "missing claim",
    "wrong-issuer": "wrong issuer",
    "no-issuer": "missing claim",
    "tampered": "bad signature",
    "signed-by-another-key-with-its-kid": "bad signature",
    "alg-none": "algorithm not allowed",
    "hs256-with-the-public-pem": "algorithm not allowed",
    "alg-not-in-the-allow-list": "algorithm not allowed",
    "alg-not-the-keys-type": "algorithm not allowed",
    "unknown-kid": "unknown key",
    "no-exp": "missing claim",
    "no-subject": "missing claim",
    "subject-not-a-string": "malformed",
    "scope-not-words": "malformed",
    "exp-not-a-number": "malformed",
    "header-not-json": "malformed",
    "payload-not-base64url-json": "malformed",
    "payload-a-json-list": "malformed",
    "header-alg-not-a-string": "malformed",
}
"""Each token no host may accept -> the ``error_description`` (reason class) of its 401 challenge."""


ALG_A_NUMBER = b'{"alg": 256, "kid": "rsa-1"}'


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


@dataclass
class SigningKey:
    kid: str
    kind: KeyKind
    private: Any
    declare_alg: bool = False
    """Whether its JWK carries ``alg`` (many IdPs' do; a JWK without it may serve RS* and PS* alike)."""

    def jwk(self) -> dict[str, Any]:
        public = self.private.public_key()
        exporter = {"RSA": RSAAlgorithm, "EC": ECAlgorithm, "Ed25519": OKPAlgorithm}[self.kind]
        jwk: dict[str, Any] = {**exporter.to_jwk(public, as_dict=True), "kid": self.kid, "use": "sig"}
        if self.declare_alg:
            jwk["alg"] = DEFAULT_ALG[self.kind]
        return jwk

    def public_pem(self) -> bytes:
        return bytes(
            self.private.public_key().public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
            )
        )


def new_key(kind: KeyKind, kid: str, declare_alg: bool = False) -> SigningKey:
    if kind == "RSA":
        private: Any = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    elif kind == "EC":
        private = ec.generate_private_key(ec.SECP256R1())
    else:
        private = ed25519.Ed25519PrivateKey.generate()
    return SigningKey(kid, kind, private, declare_alg)


@dataclass
class FakeIssuer:
    issuer: str = "https://idp.example.test/"
    audience: str = "agentic-driver"
    keys: list[SigningKey] = field(default_factory=list)
    fetches: int = 0
    """JWKS fetches served by ``serve_jwks``."""
    fetch_delay_s: float = 0.0
    """How long ``serve_jwks`` waits before it answers (a slow identity provider)."""

    def add_key(self, kind: KeyKind = "RSA", kid: str | None = None, declare_alg: bool = False) -> SigningKey:
        key = new_key(kind, kid or f"{kind.lower()}-{len(self.keys) + 1}", declare_alg)
        self.keys.append(key)
        return key

    def key(self, kid: str) -> SigningKey:
        return next(key for key in self.keys if key.kid == kid)

    def jwks(self) -> dict[str, Any]:
        return {"keys": [key.jwk() for key in self.keys]}

    def write_jwks(self, path: Path) -> Path:
        path.write_text(json.dumps(self.jwks()), encoding="utf-8")
        return path

    def claims(self, **overrides: Any) -> dict[str, Any]:
        """Claims of a good token: this issuer and audience, valid for five minutes, every session grant.
        An override of ``None`` leaves the claim out."""
        now = int(time.time())
        claims: dict[str, Any] = {
            "iss": self.issuer,
            "aud": self.audience,
            "sub": "user-1",
            "iat": now,
            "nbf": now,
            "exp": now + 300,
            "scope": ALL_SCOPES,
        }
        claims.update(overrides)
        return {name: value for name, value in claims.items() if value is not None}

    def token(
        self,
        key: SigningKey | None = None,
        alg: str | None = None,
        headers: dict[str, Any] | None = None,
        **claims: Any,
    ) -> str:
        """A token signed by ``key`` (the first key by default) with its default algorithm, or ``alg``."""
        signer = key or self.keys[0]
        return jwt.encode(
            self.claims(**claims),
            signer.private,
            algorithm=alg or DEFAULT_ALG[signer.kind],
            headers={"kid": signer.kid, **(headers or {})},
        )

    def forged(
        self, how: Literal["alg-none", "hs256-public-pem", "tampered"], key: SigningKey | None = None, **claims: Any
    ) -> str:
        """A token no IdP issues: unsigned, HMAC keyed with the public key's PEM, or signed then altered."""
        signer = key or self.keys[0]
        payload = b64(json.dumps(self.claims(**claims)).encode())
        if how == "alg-none":
            header = b64(json.dumps({"alg": "none", "typ": "JWT", "kid": signer.kid}).encode())
            return f"{header}.{payload}."
        if how == "hs256-public-pem":
            header = b64(json.dumps({"alg": "HS256", "typ": "JWT", "kid": signer.kid}).encode())
            signature = hmac.new(signer.public_pem(), f"{header}.{payload}".encode(), hashlib.sha256).digest()
            return f"{header}.{payload}.{b64(signature)}"
        header_part, _, signature_part = self.token(signer).split(".")
        altered = b64(json.dumps(self.claims(sub="someone-else", **claims)).encode())
        return f"{header_part}.{altered}.{signature_part}"

    def bad_token(self, case: str) -> str:
        """The token of one ``NEGATIVE_MATRIX`` case, for an issuer holding keys ``rsa-1`` and ``ec-1``, whose
        allow-list has RS256, PS256, ES256 (and perhaps EdDSA) but not RS512, and leeway under a minute."""
        now = int(time.time())
        rsa_key = self.key("rsa-1")
        header, payload, signature = self.token(rsa_key).split(".")
        stranger = SigningKey("rsa-1", "RSA", new_key("RSA", "stranger").private)  # not the issuer's, same kid
        tokens = {
            "expired": lambda: self.token(rsa_key, exp=now - 60, iat=now - 600, nbf=now - 600),
            "not-before-in-the-future": lambda: self.token(rsa_key, nbf=now + 600),
            "issued-in-the-future": lambda: self.token(rsa_key, iat=now + 600, nbf=None),
            "wrong-audience": lambda: self.token(rsa_key, aud="someone-else"),
            "no-audience": lambda: self.token(rsa_key, aud=None),
            "wrong-issuer": lambda: self.token(rsa_key, iss="https://evil.example.test/"),
            "no-issuer": lambda: self.token(rsa_key, iss=None),
            "tampered": lambda: self.forged("tampered", rsa_key),
            "signed-by-another-key-with-its-kid": lambda: self.token(stranger),
            "alg-none": lambda: self.forged("alg-none", rsa_key),
            "hs256-with-the-public-pem": lambda: self.forged("hs256-public-pem", rsa_key),
            "alg-not-in-the-allow-list": lambda: self.token(rsa_key, "RS512"),
            "alg-not-the-keys-type": lambda: self.token(self.key("ec-1"), "ES256", headers={"kid": "rsa-1"}),
            "unknown-kid": lambda: self.token(rsa_key, headers={"kid": "no-such-key"}),
            "no-exp": lambda: self.token(rsa_key, exp=None),
            "no-subject": lambda: self.token(rsa_key, sub=None),
            "subject-not-a-string": lambda: self.token(rsa_key, sub=42),
            "scope-not-words": lambda: self.token(rsa_key, scope={"sessions": "all"}),
            "exp-not-a-number": lambda: self.token(rsa_key, exp="tomorrow"),
            "header-not-json": lambda: f"{b64(b'{not json')}.{payload}.{signature}",
            "payload-not-base64url-json": lambda: f"{header}.{b64(b'[1, 2')}.{signature}",
            "payload-a-json-list": lambda: f"{header}.{b64(b'[1, 2]')}.{signature}",
            "header-alg-not-a-string": lambda: f"{b64(ALG_A_NUMBER)}.{payload}.{signature}",
        }
        assert set(tokens) == set(NEGATIVE_MATRIX)
        return tokens[case]()

    @contextmanager
    def serve_jwks(self, ca: trustme.CA) -> Iterator[str]:
        """Serve ``/jwks`` (the keys as they are at each fetch) over HTTPS on 127.0.0.1; yields its URL."""
        issuer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path != "/jwks":
                    self.send_error(404)
                    return
                issuer.fetches += 1
                time.sleep(issuer.fetch_delay_s)
                body = json.dumps(issuer.jwks()).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ca.issue_cert("127.0.0.1", "localhost").configure_cert(context)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        thread = threading.Thread(target=server.serve_forever, name="fake-issuer-jwks", daemon=True)
        thread.start()
        try:
            yield f"https://127.0.0.1:{server.server_address[1]}/jwks"
        finally:
            server.shutdown()
            server.server_close()
            thread.join(timeout=5)
