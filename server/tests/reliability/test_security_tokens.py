"""Security, tokens never leak: a full scenario against a real host at debug log level; neither a bearer
secret (literal, from the environment, or configured only as a SHA-256) nor a provider API key
placeholder appears in its log output, metrics or any answer; no object in an embedded host shows one
in its repr; the comparison touches every configured digest whichever matches.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from e2e.conftest import Host, launch_host
from fakes.otlp import OtlpReceiver

from agentic_driver import auth
from agentic_driver.auth import TokenPolicy
from agentic_driver.config import parse_config

from .inprocess import TOKEN, run_body
from .properties import tally
from .security_support import (
    ALL,
    BOB,
    _fake,
    _token,
)

# -- tokens ---------------------------------------------------------------------------------------

ENV_SECRET = "env-held-secret-token-000001"
HASHED_SECRET = "hashed-only-secret-token-0001"
API_KEY = "sk-placeholder-PROVIDER-API-KEY-0123456789abcdef"


def test_the_token_comparison_touches_every_digest_whichever_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    config = parse_config(
        {
            "providers": [{"id": "echo", "kind": "echo"}],
            "tokens": [_token(f"s{i}", f"secret-number-{i:04d}-padding", ["*"], []) for i in range(5)],
        }
    )
    policy = TokenPolicy(config.tokens)
    compared: list[int] = []
    real = auth.hmac.compare_digest

    def counting(a: bytes, b: bytes) -> bool:
        compared.append(1)
        return real(a, b)

    monkeypatch.setattr(auth.hmac, "compare_digest", counting)
    for presented in ("secret-number-0000-padding", "secret-number-0004-padding", "no-such-secret-at-all"):
        compared.clear()
        policy.authenticate(presented)
        assert len(compared) == 5, presented
    assert BOB not in repr(policy) and "secret-number" not in repr(policy.__dict__)


def test_no_object_of_an_embedded_host_shows_a_secret_in_its_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RELIABILITY_ENV_TOKEN", ENV_SECRET)
    from agentic_driver.cli import build_host

    config = parse_config(
        {
            "providers": [{"id": "echo", "kind": "echo", "accountId": "acct-1"}],
            "sessions": {"retentionMs": 1_000},
            "tokens": [
                _token("alice", TOKEN, ["*"], ALL),
                {"subject": "env", "tokenEnv": "RELIABILITY_ENV_TOKEN", "providers": ["*"], "sessions": []},
                {
                    "subject": "hashed",
                    "tokenSha256": hashlib.sha256(HASHED_SECRET.encode()).hexdigest(),
                    "providers": ["*"],
                },
            ],
        }
    )
    driver, app = build_host(config)
    gc.collect()
    checked = 0
    for obj in gc.get_objects():
        module = getattr(type(obj), "__module__", "")
        if (
            not isinstance(module, str) or not module.startswith(("agentic_driver", "fastapi", "starlette"))
        ) and obj is not config:
            continue
        for show in (repr, str):
            try:
                text = show(obj)
            except Exception:
                continue
            assert TOKEN not in text and ENV_SECRET not in text and HASHED_SECRET not in text, (type(obj), text[:200])
        checked += 1
    assert checked > 100
    del driver, app


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_secrets_never_reach_logs_metrics_answers_or_spans(tmp_path: Path, log_format: str) -> None:
    """Both log formats; the JSON run also exports traces, and no exported span holds a secret either."""
    config: dict[str, Any] = {
        "hostId": "secrets",
        "providers": [{"id": "echo", "kind": "echo", "accountId": "acct-1"}],
        "sessions": {"retentionMs": 600_000},
        "limits": {"drainTimeoutMs": 2_000},
        "tokens": [
            _token("alice", TOKEN, ["*"], ALL),
            {"subject": "env", "tokenEnv": "RELIABILITY_ENV_TOKEN", "providers": ["*"], "sessions": ALL},
            {
                "subject": "hashed",
                "tokenSha256": hashlib.sha256(HASHED_SECRET.encode()).hexdigest(),
                "providers": ["echo"],
                "sessions": ["read"],
            },
        ],
    }
    config["logging"] = {"format": log_format}
    env = {"RELIABILITY_ENV_TOKEN": ENV_SECRET, "OPENAI_API_KEY": API_KEY, "ANTHROPIC_API_KEY": API_KEY}
    with contextlib.ExitStack() as stack:
        receiver = stack.enter_context(OtlpReceiver()) if log_format == "json" else None
        if receiver is not None:
            env |= {"OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint, "OTEL_BSP_SCHEDULE_DELAY": "50"}
        log, seen = _secret_scenario(tmp_path, config, env)
        if receiver is not None:  # the host flushed its spans as it stopped
            spans = receiver.received()
            assert {s.name for s in spans} >= {"POST /v1/runs", "invoke_agent agentic-driver", "chat echo-1"}
            seen += [bytes.hex(raw) + raw.decode("latin-1") for raw in receiver.raw]
    if log_format == "json":
        assert all(json.loads(line) for line in log.splitlines() if line.strip())  # every line is one object
    assert "Started server process" in log and "Finished server process" in log
    for secret in [TOKEN, ENV_SECRET, HASHED_SECRET, API_KEY]:
        assert secret not in log, f"a secret is in the host's log output: {secret[:6]}..."
        for text in seen:
            assert secret not in text, f"a secret is in an answer or span: {secret[:6]}..."
    tally("security", "secret scenario requests")


def _secret_scenario(tmp_path: Path, config: dict[str, Any], env: dict[str, str]) -> tuple[str, list[str]]:
    """Every operation with every kind of token (and wrong ones); the host's log and everything it answered."""
    host = _debug_host(tmp_path, config, env)
    seen: list[str] = []
    try:
        with httpx.Client(base_url=host.base_url, trust_env=False, timeout=10) as http:
            for secret in (TOKEN, ENV_SECRET, HASHED_SECRET):
                auth_ = {"Authorization": f"Bearer {secret}"}
                for response in _scenario(http, auth_):
                    seen.append(json.dumps(dict(response.headers)) + response.text)
            for wrong in (TOKEN + "x", API_KEY, f"Basic {TOKEN}"):
                response = http.get("/v1/discovery", headers={"Authorization": f"Bearer {wrong}"})
                assert response.status_code == 401
                seen.append(json.dumps(dict(response.headers)) + response.text)
            seen.append(http.get("/metrics").text)
        host.process.send_signal(signal.SIGTERM)
        host.process.wait(timeout=10)
    finally:
        host.stop()
    return host.log_text(), seen


def _debug_host(tmp_path: Path, config: dict[str, Any], env: dict[str, str]) -> Host:
    return launch_host("secrets", config, tmp_path, env, log_level="debug")


def _scenario(http: httpx.Client, headers: dict[str, str]) -> Iterator[httpx.Response]:
    """Every operation, successes and refusals, as one principal."""
    yield http.get("/v1/discovery", headers=headers)
    created = http.post(
        "/v1/sessions", json={"provider": "echo", "model": "echo-1", "mode": "history"}, headers=headers
    )
    yield created
    yield http.post("/v1/sessions", content=b"{bad json", headers={**headers, "Content-Type": "application/json"})
    yield http.post("/v1/runs", json=run_body(None, "!fail\nStateless"), headers=headers)
    if created.status_code != 201:
        yield http.get(f"/v1/sessions/{_fake('ses')}", headers=headers)
        return
    session = created.json()["session"]
    first = http.post("/v1/runs", json=run_body(session, "Hello"), headers=headers)
    yield first
    with http.stream(
        "POST", "/v1/runs/stream", json=run_body(first.json()["session"], "!chunks 3\nStream"), headers=headers
    ) as streamed:
        streamed.read()
        yield streamed
    yield http.post("/v1/runs", json=run_body(session, "Stale"), headers=headers)
    yield http.get(f"/v1/sessions/{session['id']}", headers=headers)
    yield http.post(f"/v1/runs/{_fake('run')}/cancel", headers=headers)
    yield http.post(f"/v1/runs/{_fake('run')}/actions", json={"functionResults": []}, headers=headers)
    yield http.delete(f"/v1/sessions/{session['id']}", headers=headers)
