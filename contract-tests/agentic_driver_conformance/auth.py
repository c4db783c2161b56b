"""``agentic-driver-conformance-auth``: does a host refuse every JWT it must refuse, and say why?

    agentic-driver-conformance-auth keygen DIR
    agentic-driver-conformance-auth check --base-url URL --issuer ISS --audience AUD --key DIR/signing-key.jwk
                                          [--provider echo --model echo-1] [--max-sessions N] [--report FILE]

``keygen`` writes a test signing key (ES256, ``signing-key.jwk``, private: keep it to the test) and its public
half as a JWKS (``jwks.json``): configure the host's ``auth.jwt`` entry with ``"jwksFile": "DIR/jwks.json"``,
this ``issuer`` and ``audience``, ``"algorithms": ["ES256"]``, and no leeway beyond a few seconds. ``check``
then plays the issuer: a valid token must run a session turn; each forged one (expired, not yet valid,
another audience, another issuer, a tampered signature, ``alg: none``, HS256 keyed with the public key, an
unknown ``kid``, no ``exp``, not a JWT) must be ``401 UNAUTHENTICATED`` with ``WWW-Authenticate: Bearer
error="invalid_token"`` naming its reason class, and no token must be ``401`` without an error code; a token
missing one ``sessions:*`` scope must be ``403 PERMISSION_DENIED`` on the operation that needs it. No answer
may be a 5xx or hold any part of a token sent. With ``--max-sessions N`` (the host's
``limits.perSubject.maxSessions``) the N+1th session is ``429 SUBJECT_QUOTA_EXCEEDED``. Exit 0 when every
case passed; the report (``--report``) lists each case and what the host answered.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

__all__ = ["main"]

GRANTS = ("create", "read", "continue", "delete")
ALL_SCOPES = " ".join(f"sessions:{grant}" for grant in GRANTS)
KID = "conformance-es256"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _segment(value: dict[str, Any]) -> str:
    return _b64(json.dumps(value, separators=(",", ":")).encode())


# -- keys -----------------------------------------------------------------------------------------------------------


def keygen(directory: Path) -> tuple[Path, Path]:
    """A new ES256 key: the private JWK and the public JWKS the host is given."""
    import jwt
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    private = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(key)) | {"kid": KID, "alg": "ES256", "use": "sig"}
    public = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(key.public_key())) | {
        "kid": KID,
        "alg": "ES256",
        "use": "sig",
    }
    directory.mkdir(parents=True, exist_ok=True)
    key_path, jwks_path = directory / "signing-key.jwk", directory / "jwks.json"
    key_path.write_text(json.dumps(private))
    key_path.chmod(0o600)
    jwks_path.write_text(json.dumps({"keys": [public]}))
    return key_path, jwks_path


@dataclass
class Issuer:
    """Mints tokens as the host's configured issuer, and the forgeries no honest issuer makes."""

    issuer: str
    audience: str
    key: Any
    kid: str
    sent: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, issuer: str, audience: str, key_path: Path) -> Issuer:
        import jwt

        jwk = json.loads(key_path.read_text())
        return cls(issuer, audience, jwt.algorithms.ECAlgorithm.from_jwk(json.dumps(jwk)), str(jwk.get("kid", KID)))

    def claims(self, **overrides: Any) -> dict[str, Any]:
        now = int(time.time())
        claims: dict[str, Any] = {
            "iss": self.issuer,
            "aud": self.audience,
            "sub": "conformance-" + uuid.uuid4().hex[:12],  # a subject of its own each run: no quota carried over
            "iat": now,
            "exp": now + 600,
            "scope": ALL_SCOPES,
            "jti": uuid.uuid4().hex,
        }
        claims.update(overrides)
        return {k: v for k, v in claims.items() if v is not None}

    def signed(self, claims: dict[str, Any], kid: str | None = None) -> str:
        import jwt

        token = str(jwt.encode(claims, self.key, algorithm="ES256", headers={"kid": kid or self.kid}))
        self.sent.append(token)
        return token

    def alg_none(self) -> str:
        token = f"{_segment({'alg': 'none', 'typ': 'JWT', 'kid': self.kid})}.{_segment(self.claims())}."
        self.sent.append(token)
        return token

    def hmac_with_public_key(self) -> str:
        """HS256 keyed with the issuer's public key (PEM): the algorithm confusion an asymmetric-only host refuses."""
        from cryptography.hazmat.primitives import serialization

        pem = self.key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        signing_input = f"{_segment({'alg': 'HS256', 'typ': 'JWT', 'kid': self.kid})}.{_segment(self.claims())}"
        signature = hmac.new(pem, signing_input.encode(), hashlib.sha256).digest()
        token = f"{signing_input}.{_b64(signature)}"
        self.sent.append(token)
        return token

    def tampered(self) -> str:
        """A valid token whose payload was changed after signing (a wider scope)."""
        header, _, signature = self.signed(self.claims(scope="sessions:read")).split(".")
        token = f"{header}.{_segment(self.claims())}.{signature}"
        self.sent.append(token)
        return token


# -- the cases ------------------------------------------------------------------------------------------------------


@dataclass
class Case:
    name: str
    passed: bool
    expected: str
    answered: str


@dataclass
class Report:
    baseUrl: str
    cases: list[Case] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return bool(self.cases) and all(case.passed for case in self.cases)


def _answer(response: httpx.Response) -> str:
    code = None
    if response.headers.get("content-type", "").startswith("application/problem+json"):
        code = response.json().get("code")
    challenge = response.headers.get("www-authenticate")
    return f"{response.status_code} {code or ''}".strip() + (f"; WWW-Authenticate: {challenge}" if challenge else "")


class Checker:
    def __init__(self, base_url: str, issuer: Issuer, provider: str, model: str) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=30.0, trust_env=False)
        self.issuer = issuer
        self.provider, self.model = provider, model
        self.report = Report(base_url)
        self.answers: list[httpx.Response] = []

    def send(self, token: str | None, method: str, path: str, body: Any = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
        response = self.http.request(method, path, json=body, headers=headers)
        self.answers.append(response)
        return response

    def case(self, name: str, expected: str, response: httpx.Response, ok: bool) -> None:
        self.report.cases.append(Case(name, ok, expected, _answer(response)))

    def refused(self, name: str, token: str, reason: str) -> None:
        response = self.send(token, "GET", "/v1/discovery")
        challenge = response.headers.get("www-authenticate", "")
        ok = (
            response.status_code == 401
            and 'error="invalid_token"' in challenge
            and f'error_description="{reason}"' in challenge
        )
        self.case(name, f'401 UNAUTHENTICATED; error="invalid_token", error_description="{reason}"', response, ok)

    def session_body(self) -> dict[str, Any]:
        return {"provider": self.provider, "model": self.model, "mode": "history"}

    def run_all(self, max_sessions: int | None) -> Report:
        issuer = self.issuer
        valid = issuer.signed(issuer.claims())
        self._valid_token_runs_a_turn(valid)
        self.refused(
            "expired", issuer.signed(issuer.claims(iat=int(time.time()) - 7200, exp=int(time.time()) - 3600)), "expired"
        )
        self.refused("not yet valid", issuer.signed(issuer.claims(nbf=int(time.time()) + 3600)), "not yet valid")
        self.refused(
            "wrong audience", issuer.signed(issuer.claims(aud="https://another-api.invalid/")), "wrong audience"
        )
        self.refused("wrong issuer", issuer.signed(issuer.claims(iss="https://another-issuer.invalid")), "wrong issuer")
        self.refused("tampered signature", issuer.tampered(), "bad signature")
        self.refused("alg none", issuer.alg_none(), "algorithm not allowed")
        self.refused("HS256 keyed with the public key", issuer.hmac_with_public_key(), "algorithm not allowed")
        self.refused("unknown kid", issuer.signed(issuer.claims(), kid="kid-nobody-published"), "unknown key")
        self.refused("missing exp", issuer.signed(issuer.claims(exp=None)), "missing claim")
        self.refused("malformed", "eyJhbGciOi.not-a-jwt.at-all", "malformed")
        anonymous = self.send(None, "GET", "/v1/discovery")
        challenge = anonymous.headers.get("www-authenticate", "")
        self.case(
            "no token", "401 UNAUTHENTICATED; a Bearer challenge without an error code", anonymous,
            anonymous.status_code == 401 and challenge.startswith("Bearer") and "error=" not in challenge,
        )  # fmt: skip
        self._missing_scopes()
        if max_sessions is not None:
            self._session_quota(max_sessions)
        self._no_five_hundreds_and_no_token_echoed()
        return self.report

    def _valid_token_runs_a_turn(self, token: str) -> None:
        created = self.send(token, "POST", "/v1/sessions", self.session_body())
        if created.status_code != 201:
            self.case("valid token", "201 from createSession", created, False)
            return
        session = created.json()["session"]
        body: dict[str, Any] = {"provider": self.provider, "model": self.model, "input": "Hello."}
        body["session"] = {"id": session["id"], "revision": session["revision"]}
        ran = self.send(token, "POST", "/v1/runs", body)
        self.case("valid token", "201 from createSession, then 200 from a session run", ran, ran.status_code == 200)
        self.send(token, "DELETE", f"/v1/sessions/{session['id']}")

    def _missing_scopes(self) -> None:
        issuer = self.issuer
        subject = issuer.claims()["sub"]
        full = issuer.signed(issuer.claims(sub=subject))
        made = self.send(full, "POST", "/v1/sessions", self.session_body())
        session = made.json()["session"] if made.status_code == 201 else {"id": "ses_none", "revision": 0}
        run = {"provider": self.provider, "model": self.model, "input": "Hi."}
        operations: dict[str, Callable[[str], httpx.Response]] = {
            "create": lambda token: self.send(token, "POST", "/v1/sessions", self.session_body()),
            "read": lambda token: self.send(token, "GET", f"/v1/sessions/{session['id']}"),
            "continue": lambda token: self.send(
                token, "POST", "/v1/runs", run | {"session": {"id": session["id"], "revision": session["revision"]}}
            ),
            "delete": lambda token: self.send(token, "DELETE", f"/v1/sessions/{session['id']}"),
        }
        for grant, call in operations.items():
            scope = " ".join(f"sessions:{g}" for g in GRANTS if g != grant)
            response = call(issuer.signed(issuer.claims(sub=subject, scope=scope)))
            code = response.json().get("code") if response.status_code >= 400 else None
            self.case(
                f"no sessions:{grant} scope", f"403 PERMISSION_DENIED on the operation needing {grant}", response,
                response.status_code == 403 and code == "PERMISSION_DENIED",
            )  # fmt: skip
        self.send(full, "DELETE", f"/v1/sessions/{session['id']}")

    def _session_quota(self, maximum: int) -> None:
        token = self.issuer.signed(self.issuer.claims())
        created = [self.send(token, "POST", "/v1/sessions", self.session_body()) for _ in range(maximum)]
        over = self.send(token, "POST", "/v1/sessions", self.session_body())
        body = over.json() if over.status_code == 429 else {}
        self.case(
            f"session {maximum + 1} of a subject allowed {maximum}",
            "429 SUBJECT_QUOTA_EXCEEDED, limit perSubject.maxSessions",
            over,
            all(r.status_code == 201 for r in created)
            and body.get("code") == "SUBJECT_QUOTA_EXCEEDED"
            and body.get("limit") == "perSubject.maxSessions"
            and body.get("maximum") == maximum,
        )
        for response in created:
            if response.status_code == 201:
                self.send(token, "DELETE", f"/v1/sessions/{response.json()['session']['id']}")

    def _no_five_hundreds_and_no_token_echoed(self) -> None:
        five = [r for r in self.answers if r.status_code >= 500]
        parts = {part for token in self.issuer.sent for part in token.split(".") if len(part) >= 16}
        echoed = [r for r in self.answers if any(p in r.text or p in str(r.headers) for p in parts)]
        summary = httpx.Response(500 if five else 200)
        self.case(
            "no 5xx, no token echoed", "every answer below 500, none holding any part of a token sent",
            five[0] if five else (echoed[0] if echoed else summary), not five and not echoed,
        )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="agentic-driver-conformance-auth", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser("keygen", help="write a test signing key and its JWKS into DIR")
    gen.add_argument("directory", type=Path)
    check = commands.add_parser("check", help="play the issuer against a running host")
    check.add_argument("--base-url", required=True)
    check.add_argument("--issuer", required=True)
    check.add_argument("--audience", required=True)
    check.add_argument("--key", type=Path, required=True, help="the private JWK keygen wrote")
    check.add_argument("--provider", default="echo")
    check.add_argument("--model", default="echo-1")
    check.add_argument("--max-sessions", type=int, help="the host's limits.perSubject.maxSessions, to check")
    check.add_argument("--report", type=Path, help="write the cases as JSON here")
    options = parser.parse_args(argv)
    if options.command == "keygen":
        key_path, jwks_path = keygen(options.directory)
        print(f"signing key (private): {key_path}\nJWKS for the host's auth.jwt jwksFile: {jwks_path}")
        return 0
    issuer = Issuer.load(options.issuer, options.audience, options.key)
    checker = Checker(options.base_url.rstrip("/"), issuer, options.provider, options.model)
    report = checker.run_all(options.max_sessions)
    for case in report.cases:
        mark = "ok  " if case.passed else "FAIL"
        print(f"  {mark} {case.name:<40} {case.answered}" + ("" if case.passed else f"  (expected {case.expected})"))
    print(f"auth profile: {sum(c.passed for c in report.cases)}/{len(report.cases)} cases passed")
    if options.report is not None:
        options.report.write_text(json.dumps(asdict(report) | {"passed": report.passed}, indent=2) + "\n")
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
