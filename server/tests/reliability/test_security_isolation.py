"""Security, isolation: no principal reaches another subject's session.

Hypothesis draws random principals of other subjects that try every operation on alice's sessions
(idle, paused waiting for a function result, interrupted) and runs: each answer is exactly the
answer for an id that never existed (status, code, headers, body with the id masked), alice's
sessions do not change and no model call is made. An idempotency key belongs to its subject;
discovery and identity headers reveal and change nothing. Over HTTP the two are in one timing class
(medians within a generous factor).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from e2e.conftest import launch_host
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .inprocess import TOKEN, AsgiCall, Rig, run_body
from .properties import PROPERTY_EXAMPLES, tally
from .security_support import (
    ALL,
    ATTACKERS,
    BOB,
    CAROL,
    ID,
    LOOKUP,
    MALLORY,
    _fake,
    _token,
)

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
