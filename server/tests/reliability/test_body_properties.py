"""Property: request bodies beyond what the schema allows get a problem answer, never a 500, and the
host keeps serving.

Bodies are valid requests broken at a random path (a random JSON value, a removed or an unknown
member), or raw bytes: truncated JSON, invalid UTF-8, lone surrogates, NaN and 1e999, numbers out of
range, deep nesting, repeated member names, huge strings (over ``maxBodyBytes`` too), sent with
right and wrong content types, to every operation that takes a body. In process (an embedded driver
behind its ASGI app) for speed; a smaller sample goes to a real host process over HTTP.
"""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from e2e.conftest import ALICE, Host
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentic_driver.errors import CATALOGUE, ErrorCode

from .conftest import history_config
from .inprocess import Rig
from .properties import PROPERTY_EXAMPLES, json_values, tally

MAX_BODY = 8_192
SESSION = "<session>"
RUN = "<run>"

VALID: dict[str, dict[str, Any]] = {
    "/v1/sessions": {
        "provider": "echo",
        "model": "echo-1",
        "mode": "history",
        "instructions": "Be brief.",
        "history": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}],
    },
    "/v1/runs": {
        "provider": "echo",
        "model": "echo-1",
        "input": "Hello",
        "session": {"id": SESSION, "revision": 0},
        "idleTimeoutMs": 10_000,
        "tools": [{"name": "lookup", "description": "Look up.", "parameters": {"type": "object"}}],
    },
    "/v1/runs/stream": {"provider": "echo", "model": "echo-1", "input": "Hello", "instructions": "Be brief."},
    f"/v1/runs/{RUN}/actions": {"functionResults": [{"callId": "call_1", "output": "42"}]},
    f"/v1/runs/{RUN}/actions/stream": {"approvals": [{"callId": "call_1", "approve": True, "reason": "ok"}]},
}
CONTENT_TYPES = [
    "application/json",
    "application/json; charset=utf-8",
    "APPLICATION/JSON",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/problem+json",
    "application/json-seq",
    "",
    "\x7f",
]


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*prefix, index))


@st.composite
def broken_bodies(draw: st.DrawFn, path: str) -> bytes:
    body: Any = copy.deepcopy(VALID[path])
    where = draw(st.sampled_from(list(_paths(body))))
    if not where:
        body = draw(json_values)
    else:
        parent = body
        for part in where[:-1]:
            parent = parent[part]
        how = draw(st.sampled_from(["replace", "remove", "add"]))
        if how == "remove" and isinstance(parent, dict):
            del parent[where[-1]]
        elif how == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=10))] = draw(json_values)
        else:
            parent[where[-1]] = draw(json_values)
    return json.dumps(body).encode()


def _nest(depth: int, leaf: str, kind: str) -> str:
    return ("[" * depth + leaf + "]" * depth) if kind == "array" else ('{"a":' * depth + leaf + "}" * depth)


@st.composite
def raw_bodies(draw: st.DrawFn, path: str) -> bytes:
    valid = json.dumps(VALID[path])
    kind = draw(
        st.sampled_from(
            ["truncate", "bytes", "utf8", "surrogate", "constant", "number", "deep", "repeat", "huge", "splice"]
        )
    )
    if kind == "truncate":
        return valid.encode()[: draw(st.integers(0, len(valid) - 1))]
    if kind == "bytes":
        return draw(st.binary(max_size=300))
    if kind == "utf8":
        bad = draw(st.sampled_from([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80"]))
        return valid.encode().replace(b'"Hello"', b'"Hel' + bad + b'lo"').replace(b'"echo"', b'"ec' + bad + b'ho"', 1)
    if kind == "surrogate":
        return valid.replace('"echo"', '"\\udc00echo"', 1).replace('"Hello"', '"\\ud83dHello"').encode()
    if kind == "constant":
        constant = draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1e-999", "-0", "0.0"]))
        return valid.replace("10000", constant).replace('"revision": 0', f'"revision": {constant}').encode()
    if kind == "number":
        number = draw(st.sampled_from(["2e0", "9007199254740992", str(10**400), "-1", "1.5", "86400001", "1E2"]))
        return valid.replace("10000", number).replace('"revision": 0', f'"revision": {number}').encode()
    if kind == "deep":
        depth = draw(st.sampled_from([10, 100, 990, 1_000, 5_000, 100_000]))
        nested = _nest(depth, '"x"', draw(st.sampled_from(["array", "object"])))
        return valid.replace('"Hello"', nested).replace('{"type": "object"}', nested).replace('"42"', nested).encode()
    if kind == "repeat":
        name = draw(st.sampled_from(["provider", "input", "model", "functionResults", "approvals", "mode"]))
        return (valid[:-1] + f', "{name}": "again"' + "}").encode()
    if kind == "huge":
        size = draw(st.sampled_from([MAX_BODY // 2, MAX_BODY - 100, MAX_BODY + 1, MAX_BODY * 4]))
        return valid.replace('"Hello"', json.dumps("h" * size)).replace('"Be brief."', json.dumps("i" * size)).encode()
    splice = draw(st.binary(min_size=1, max_size=20))
    at = draw(st.integers(0, len(valid)))
    return valid.encode()[:at] + splice + valid.encode()[at:]


requests = st.sampled_from(list(VALID)).flatmap(
    lambda path: st.tuples(
        st.just(path),
        st.one_of(broken_bodies(path), raw_bodies(path)),
        st.sampled_from(CONTENT_TYPES[:1] * 6 + CONTENT_TYPES),
    )
)


def check_answer(status: int, content_type: str, body: bytes) -> None:
    """A documented answer: success, or a problem whose code carries this status; never a 500."""
    assert status != 500, body[:300]
    if status < 400:
        return
    assert content_type.split(";")[0] == "application/problem+json", (status, content_type, body[:200])
    problem = json.loads(body)
    code = ErrorCode(problem["code"])
    assert CATALOGUE[code].status == status == problem["status"], problem
    assert code is not ErrorCode.INTERNAL_ERROR
    assert problem["detail"]


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


@pytest.fixture(scope="module")
def rig(loop: asyncio.AbstractEventLoop) -> Rig:
    async def make() -> Rig:
        return Rig(maxBodyBytes=MAX_BODY, maxConcurrentRuns=8, maxQueuedRuns=64)

    return loop.run_until_complete(make())


async def _send(rig: Rig, path: str, raw: bytes, content_type: str) -> tuple[int, str, bytes]:
    session = await rig.new_session()
    raw = raw.replace(SESSION.encode(), session["id"].encode()).replace(RUN.encode(), b"run_none")
    path = path.replace(RUN, "run_none")
    call = rig.call("POST", path, raw, content_type=content_type or None)
    await call.finished(timeout_s=10)
    start = next(m for m in call.messages if m["type"] == "http.response.start")
    headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    return int(start["status"]), headers.get("content-type", ""), call.body


@settings(max_examples=PROPERTY_EXAMPLES * 4, suppress_health_check=[HealthCheck.too_slow])
@given(requests)
def test_no_bad_body_is_a_500_and_the_host_keeps_serving(
    loop: asyncio.AbstractEventLoop, rig: Rig, request: tuple[str, bytes, str]
) -> None:
    path, raw, content_type = request
    tally("body", path.replace(RUN, "{runId}") + (" (wrong type)" if content_type != "application/json" else ""))
    status, answer_type, body = loop.run_until_complete(_send(rig, path, raw, content_type))
    check_answer(status, answer_type, body)
    assert rig.errors("INTERNAL_ERROR") == 0

    async def still_serving() -> None:
        created = await rig.request("POST", "/v1/sessions", {"provider": "echo", "model": "echo-1", "mode": "history"})
        assert created.status == 201
        await asyncio.sleep(0)

    loop.run_until_complete(still_serving())


@pytest.fixture(scope="module")
def real_host(launch_reliability: Any) -> Host:
    config = history_config("bodies", 8)
    config["limits"]["maxBodyBytes"] = MAX_BODY
    host: Host = launch_reliability("bodies", config)
    return host


@settings(max_examples=max(20, PROPERTY_EXAMPLES // 2), suppress_health_check=[HealthCheck.too_slow])
@given(requests)
def test_a_real_host_answers_bad_bodies_with_problems(real_host: Host, request: tuple[str, bytes, str]) -> None:
    path, raw, content_type = request
    tally("body", "over HTTP")
    headers = {"Authorization": f"Bearer {ALICE}"}
    with httpx.Client(base_url=real_host.base_url, headers=headers, timeout=10, trust_env=False) as http:
        session = http.post("/v1/sessions", json={"provider": "echo", "model": "echo-1", "mode": "history"}).json()
        raw = raw.replace(SESSION.encode(), session["session"]["id"].encode()).replace(RUN.encode(), b"run_none")
        sent_headers = {"Content-Type": content_type} if content_type and content_type.isprintable() else {}
        response = http.post(path.replace(RUN, "run_none"), content=raw, headers=sent_headers)
        check_answer(response.status_code, response.headers.get("content-type", ""), response.content)
    assert real_host.healthy()
    assert real_host.error_count("INTERNAL_ERROR") == 0
