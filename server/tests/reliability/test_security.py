"""Security: no principal reaches another subject's session; the grants matrix, exhaustively; tokens
never leak; no request field carries identity, permissions or native provider state.

- Isolation (Hypothesis): random principals of other subjects try every operation on alice's
  sessions (idle, paused waiting for a function result, interrupted) and runs: each answer is
  exactly the answer for an id that never existed (status, code, headers, body with the id masked),
  alice's sessions do not change and no model call is made. Over HTTP the two are in one timing
  class (medians within a generous factor).
- Grants: every operation x every subset of the four session grants x provider granted or not.
- Tokens: a full scenario against a real host at debug log level; neither a bearer secret (literal,
  from the environment, or configured only as a SHA-256) nor a provider API key placeholder appears
  in its log output, metrics or any answer; no object in an embedded host shows one in its repr;
  the comparison touches every configured digest whichever matches.
- Forbidden fields: the schema has no such property and refuses unknown members everywhere, and the
  host refuses each such field in each body position with VALIDATION_ERROR naming it.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import itertools
import json
import re
import secrets
import signal
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from e2e.conftest import REPO_ROOT, Host, launch_host
from fakes.otlp import OtlpReceiver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentic_driver import auth
from agentic_driver.auth import TokenPolicy
from agentic_driver.config import parse_config

from .inprocess import TOKEN, AsgiCall, Rig, run_body
from .properties import PROPERTY_EXAMPLES, tally

BOB = "bob-secret-token-00000001"
CAROL = "carol-secret-token-000001"
MALLORY = "mallory-secret-token-0001"  # subject alice's neighbour: same provider, other subject
ATTACKERS = {"bob": BOB, "carol": CAROL, "mallory": MALLORY}
ALL = ["create", "read", "continue", "delete"]
LOOKUP = [{"name": "lookup", "description": "Look up.", "parameters": {"type": "object"}}]
ID = re.compile(r"(ses|run)_[A-Za-z0-9_-]{22}")


def _token(subject: str, secret: str, providers: list[str], grants: list[str]) -> dict[str, Any]:
    return {"subject": subject, "token": secret, "providers": providers, "sessions": grants}


# -- isolation -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


class Victim:
    """Alice's sessions in three states, and the ids an attacker may have learnt."""

    def __init__(self, rig: Rig) -> None:
        self.rig = rig
        self.sessions: dict[str, dict[str, Any]] = {}
        self.paused_run = ""

    async def setup(self) -> None:
        rig = self.rig
        idle = await rig.complete_turn(await rig.new_session(), "Alice's secret plan")
        paused = await rig.complete_turn(await rig.new_session(), "Alice's other plan")
        stream = await rig.request("POST", "/v1/runs/stream", run_body(paused, "!call lookup {}\nWait", tools=LOOKUP))
        self.paused_run = stream.events()[-1]["run"]["id"]
        broken = await rig.complete_turn(await rig.new_session(), "Alice's broken plan")
        failed = await rig.request("POST", "/v1/runs", run_body(broken, "!fail\nBoom"))
        assert failed.status == 502
        self.sessions = {"idle": idle, "paused": paused, "interrupted": broken}

    async def snapshot(self) -> list[Any]:
        reads = [await self.rig.read(s["id"]) for s in self.sessions.values()]
        return [
            (r["session"]["revision"], r["session"]["status"], r["history"], r.get("interruptedTurn")) for r in reads
        ]


@pytest.fixture(scope="module")
def victim(loop: asyncio.AbstractEventLoop) -> Victim:
    async def make() -> Victim:
        rig = Rig(
            tokens=[
                _token("bob", BOB, ["*"], ALL),
                _token("carol", CAROL, ["echo"], ["read", "continue"]),
                _token("mallory", MALLORY, ["echo"], ALL),
            ],
            retentionMs=600_000,
        )
        victim = Victim(rig)
        await victim.setup()
        return victim

    return loop.run_until_complete(make())


def _fake(kind: str) -> str:
    return f"{kind}_" + secrets.token_urlsafe(16)


def _shape(call: AsgiCall, *ids: str) -> tuple[Any, ...]:
    """What an answer reveals, with the ids it was asked about masked (and its own random request id)."""
    start = next(m for m in call.messages if m["type"] == "http.response.start")
    every = [(k.decode().lower(), v.decode()) for k, v in start["headers"]]
    request_id = dict(every)["x-request-id"]
    headers = sorted(pair for pair in every if pair[0] not in ("content-length", "x-request-id"))
    body = call.body.decode().replace(request_id, "<request-id>")
    for value in ids:
        body = body.replace(value, "<id>")
    return start["status"], headers, body


OPERATIONS = [
    "read",
    "delete",
    "run",
    "run-stale",
    "stream",
    "cancel",
    "actions",
    "actions-stream",
    "replay",
    "get-run",
    "run-events",
]


async def _attack(
    victim: Victim, attacker: str, operation: str, target: str
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The answer to the attack and to the same request about an id that never existed."""
    rig, token = victim.rig, ATTACKERS[attacker]
    session = victim.sessions[target]
    real = {"session": session["id"], "run": victim.paused_run}
    fake = {"session": _fake("ses"), "run": _fake("run")}

    async def ask(ids: dict[str, str]) -> AsgiCall:
        handle = {"id": ids["session"], "revision": session["revision"]}
        if operation == "read":
            return await rig.request("GET", f"/v1/sessions/{ids['session']}", token=token)
        if operation == "delete":
            return await rig.request("DELETE", f"/v1/sessions/{ids['session']}", token=token)
        if operation in ("run", "run-stale", "stream", "replay"):
            revision = handle["revision"] + (5 if operation == "run-stale" else 0)
            body = {
                "provider": "echo",
                "model": "echo-1",
                "input": "Let me in",
                "session": {**handle, "revision": revision},
            }
            path = "/v1/runs/stream" if operation == "stream" else "/v1/runs"
            headers = {"idempotency-key": "alice-key-1"} if operation == "replay" else None
            return await rig.request("POST", path, body, token=token, headers=headers)
        if operation == "cancel":
            return await rig.request("POST", f"/v1/runs/{ids['run']}/cancel", token=token)
        if operation == "get-run":
            return await rig.request("GET", f"/v1/runs/{ids['run']}", token=token)
        if operation == "run-events":
            return await rig.request("GET", f"/v1/runs/{ids['run']}/events", token=token)
        suffix = "/stream" if operation == "actions-stream" else ""
        answer = {"functionResults": [{"callId": "call_x", "output": "pwned"}]}
        return await rig.request("POST", f"/v1/runs/{ids['run']}/actions{suffix}", answer, token=token)

    attacked = await ask(real)
    control = await ask(fake)
    return _shape(attacked, *real.values()), _shape(control, *fake.values())


@settings(max_examples=PROPERTY_EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(ATTACKERS)), st.sampled_from(OPERATIONS), st.sampled_from(["idle", "paused", "interrupted"])
)
def test_no_other_subject_learns_anything_about_a_session(
    loop: asyncio.AbstractEventLoop, victim: Victim, attacker: str, operation: str, target: str
) -> None:
    tally("security", f"isolation:{operation}")
    before = loop.run_until_complete(victim.snapshot())
    calls = victim.rig.provider_calls()
    attacked, control = loop.run_until_complete(_attack(victim, attacker, operation, target))
    assert attacked == control, (attacker, operation, target)
    assert attacked[0] in (403, 404, 409, 422), attacked  # never a success on alice's session
    assert loop.run_until_complete(victim.snapshot()) == before
    assert victim.rig.provider_calls() == calls


def test_an_idempotency_key_belongs_to_its_subject(loop: asyncio.AbstractEventLoop, victim: Victim) -> None:
    async def scenario() -> None:
        rig = victim.rig
        body = run_body(None, "Same body, same key")
        mine = await rig.request("POST", "/v1/runs", body, headers={"idempotency-key": "shared-key"})
        theirs = await rig.request("POST", "/v1/runs", body, token=BOB, headers={"idempotency-key": "shared-key"})
        assert mine.status == theirs.status == 200
        assert mine.json()["id"] != theirs.json()["id"]  # bob's request ran for bob; nothing was replayed

    loop.run_until_complete(scenario())


def test_discovery_and_identity_headers_reveal_and_change_nothing(
    loop: asyncio.AbstractEventLoop, victim: Victim
) -> None:
    async def scenario() -> None:
        spoof = {"x-subject": "alice", "x-account": "acct-1", "x-forwarded-user": "alice", "x-principal": "alice"}
        found = await victim.rig.request("GET", "/v1/discovery", token=BOB, headers=spoof)
        assert found.json()["subject"] == "bob"
        assert not ID.search(found.body.decode())
        read = await victim.rig.request(
            "GET", f"/v1/sessions/{victim.sessions['idle']['id']}", token=BOB, headers=spoof
        )
        assert read.json()["code"] == "SESSION_NOT_FOUND"

    loop.run_until_complete(scenario())


def test_another_subjects_session_and_a_missing_one_take_the_same_time(tmp_path: Path) -> None:
    config = {
        "hostId": "timing",
        "providers": [{"id": "echo", "kind": "echo", "accountId": "acct-1"}],
        "sessions": {"retentionMs": 600_000},
        "tokens": [_token("alice", TOKEN, ["*"], ALL), _token("bob", BOB, ["*"], ALL)],
    }
    host = launch_host("timing", config, tmp_path)
    try:
        with httpx.Client(base_url=host.base_url, trust_env=False, timeout=10) as http:
            alice, bob = {"Authorization": f"Bearer {TOKEN}"}, {"Authorization": f"Bearer {BOB}"}
            created = http.post(
                "/v1/sessions", json={"provider": "echo", "model": "echo-1", "mode": "history"}, headers=alice
            )
            existing = created.json()["session"]["id"]
            timings: dict[str, list[float]] = {"existing": [], "missing": []}
            for _ in range(3):  # warm up
                http.get(f"/v1/sessions/{existing}", headers=bob)
            for _ in range(80):
                for kind, session_id in (("existing", existing), ("missing", _fake("ses"))):
                    started = time.perf_counter()
                    answer = http.get(f"/v1/sessions/{session_id}", headers=bob)
                    timings[kind].append(time.perf_counter() - started)
                    assert answer.json()["code"] == "SESSION_NOT_FOUND"
        medians = {kind: statistics.median(values) for kind, values in timings.items()}
        ratio = medians["existing"] / medians["missing"]
        assert 0.5 <= ratio <= 2.0 or abs(medians["existing"] - medians["missing"]) < 0.001, medians
    finally:
        host.stop()


# -- the grants matrix ---------------------------------------------------------------------------

SUBSETS = [list(c) for n in range(5) for c in itertools.combinations(ALL, n)]
MATRIX_TOKENS = {
    (tuple(grants), provider): f"matrix-{'-'.join(grants) or 'none'}-{'echo' if provider else 'other'}-token"
    for grants in SUBSETS
    for provider in (True, False)
}
MATRIX_OPERATIONS = ["discovery", "create", "read", "delete", "run", "stream", "stateless", "cancel", "actions"]


def expected(operation: str, grants: tuple[str, ...], provider: bool) -> int:
    needs = {
        "create": "create",
        "read": "read",
        "delete": "delete",
        "run": "continue",
        "stream": "continue",
        "cancel": "continue",
        "actions": "continue",
    }
    if operation == "discovery":
        return 200
    if not provider:
        return 403
    if operation == "stateless":
        return 200
    if needs[operation] not in grants:
        return 403
    return {"create": 201, "delete": 204}.get(operation, 200)


async def _matrix_case(rig: Rig, operation: str, token: str) -> AsgiCall:
    """One operation by ``token`` on a fresh target owned by the same subject (made with a full token)."""
    full = "matrix-create-read-continue-delete-echo-token"
    created = await rig.request(
        "POST", "/v1/sessions", {"provider": "echo", "model": "echo-1", "mode": "history"}, token=full
    )
    session = created.json()["session"]
    if operation == "discovery":
        return await rig.request("GET", "/v1/discovery", token=token)
    if operation == "create":
        return await rig.request(
            "POST", "/v1/sessions", {"provider": "echo", "model": "echo-1", "mode": "history"}, token=token
        )
    if operation == "read":
        return await rig.request("GET", f"/v1/sessions/{session['id']}", token=token)
    if operation == "delete":
        return await rig.request("DELETE", f"/v1/sessions/{session['id']}", token=token)
    if operation in ("run", "stream"):
        path = "/v1/runs/stream" if operation == "stream" else "/v1/runs"
        return await rig.request("POST", path, run_body(session, "Go"), token=token)
    if operation == "stateless":
        return await rig.request("POST", "/v1/runs", run_body(None, "Go"), token=token)
    paused = await rig.request(
        "POST", "/v1/runs/stream", run_body(session, "!call lookup {}\nWait", tools=LOOKUP), token=full
    )
    run = paused.events()[-1]["run"]
    if operation == "cancel":
        answer = await rig.request("POST", f"/v1/runs/{run['id']}/cancel", token=token)
    else:
        call_id = run["requiredAction"]["calls"][0]["callId"]
        results = {"functionResults": [{"callId": call_id, "output": "ok"}]}
        answer = await rig.request("POST", f"/v1/runs/{run['id']}/actions", results, token=token)
    if answer.status != 200:  # leave nothing paused behind
        await rig.request("POST", f"/v1/runs/{run['id']}/cancel", token=full)
    return answer


async def test_the_grants_matrix_is_exhaustive(rigs: Any) -> None:
    rig: Rig = rigs(
        tokens=[
            _token("matrix", secret, ["echo"] if provider else ["other"], list(grants))
            for (grants, provider), secret in MATRIX_TOKENS.items()
        ],
        providers=[{"id": "other", "kind": "echo", "accountId": "acct-2"}],
    )
    seen = 0
    for (grants, provider), token in MATRIX_TOKENS.items():
        for operation in MATRIX_OPERATIONS:
            answer = await _matrix_case(rig, operation, token)
            want = expected(operation, grants, provider)
            assert answer.status == want, (operation, grants, provider, answer.body[:200])
            if want == 403:
                assert answer.json()["code"] == "PERMISSION_DENIED"
            if operation == "discovery":
                assert answer.json()["sessionGrants"] == list(grants)
                assert [p["id"] for p in answer.json()["providers"]] == (["echo"] if provider else ["other"])
            seen += 1
    assert seen == len(SUBSETS) * 2 * len(MATRIX_OPERATIONS) == 288
    tally("security", "grants matrix cases")


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


# -- no identity, permissions or native state from a client --------------------------------------

FORBIDDEN = [
    "subject",
    "account",
    "accountId",
    "permissions",
    "grants",
    "sessionGrants",
    "principal",
    "owner",
    "native",
    "nativeState",
    "providerState",
    "state",
    "signature",
    "encryptedContent",
    "thinking",
    "reasoning",
    "items",
]


def _schemas() -> dict[str, Any]:
    spec = yaml.safe_load((REPO_ROOT / "openapi.yaml").read_text("utf-8"))
    schemas: dict[str, Any] = spec["components"]["schemas"]
    return schemas


def _request_schemas() -> set[str]:
    """Every schema reachable from a request body."""
    schemas, found = _schemas(), set()
    todo = ["CreateSessionRequest", "RunRequest", "SubmitRunActionsRequest"]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found.add(name)
        todo += re.findall(r"#/components/schemas/(\w+)", json.dumps(schemas[name]))
    return found


def test_the_schema_has_no_identity_permission_or_native_fields_and_refuses_unknown_members() -> None:
    schemas = _schemas()
    names = _request_schemas()
    assert {"CreateSessionRequest", "RunRequest", "SessionHandle", "Message", "FunctionResult"} <= names
    for name in names:
        schema = schemas[name]
        if schema.get("type") != "object":
            continue
        assert schema.get("additionalProperties") is False, name
        assert not set(schema.get("properties", {})) & set(FORBIDDEN), name


BODIES: dict[str, dict[str, Any]] = {
    "/v1/sessions": {
        "provider": "echo",
        "model": "echo-1",
        "mode": "native",
        "history": [{"role": "user", "content": "Hi"}],
    },
    "/v1/runs": {
        "provider": "echo",
        "model": "echo-1",
        "input": "Hi",
        "session": {"id": "<session>", "revision": 0},
        "tools": [{"name": "lookup", "parameters": {"type": "object"}}],
    },
    "/v1/runs/stream": {
        "provider": "echo",
        "model": "echo-1",
        "input": "Hi",
        "history": [{"role": "user", "content": "Hi"}],
    },
    "/v1/runs/<run>/actions": {"functionResults": [{"callId": "call_1", "output": "ok"}]},
    "/v1/runs/<run>/actions/stream": {"approvals": [{"callId": "call_1", "approve": True}]},
}


def _placements(body: dict[str, Any]) -> Iterator[tuple[str, list[Any]]]:
    """Every object in the body: (its location, the path to it)."""
    yield "body", []
    for key, value in body.items():
        if isinstance(value, dict):
            yield f"body.{key}", [key]
        if isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, dict):
                    yield f"body.{key}.{index}", [key, index]


async def test_each_forbidden_field_in_each_body_position_is_refused(rigs: Any) -> None:
    rig: Rig = rigs()
    session = await rig.new_session()
    calls = rig.provider_calls()
    tried = 0
    for path, template in BODIES.items():
        for location, steps in _placements(template):
            for field in FORBIDDEN:
                body = json.loads(json.dumps(template).replace("<session>", session["id"]))
                target: Any = body
                for step in steps:
                    target = target[step]
                target[field] = {"subject": "bob", "revision": 99} if field.endswith("State") else "bob"
                answer = await rig.request("POST", path.replace("<run>", "run_none"), body)
                problem = answer.json()
                assert (answer.status, problem["code"]) == (422, "VALIDATION_ERROR"), (path, location, field, problem)
                assert f"{location}.{field}" in [e["location"] for e in problem["errors"]], (path, location, field)
                tried += 1
    assert rig.provider_calls() == calls
    assert (await rig.read(session["id"]))["session"]["revision"] == 0
    assert tried >= 150
    tally("security", f"forbidden field cases ({tried})")
