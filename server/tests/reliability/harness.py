"""Concurrent clients against one real host, recording a history to check against the session model.

``run_workload`` starts ``clients`` asyncio tasks, each with its own connection
pool and its own ``random.Random(f"{seed}:{client}")``, so the *schedule* (which
operation each client issues, on which session slot, with which directives) is
a function of the seed alone; only the interleaving is left to the host.

The clients share a few session *slots*. Each slot holds one session at a time;
when a client learns that its session is interrupted, deleted or full, it
replaces it with a new one (bounded), so the workload keeps finding live
sessions. Every operation is recorded with its invocation and response times
(``time.monotonic()``, taken just before sending and just after the answer).
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

__all__ = ["KINDS", "OpRecord", "Workload", "run_workload"]

KINDS: dict[str, float] = {
    "run": 25,  # a JSON run at the revision the client believes current, sometimes sleeping
    "call": 6,  # a JSON run that pauses for a function result, answered by the same client a moment later
    "stale": 10,  # a JSON run at a revision one behind (or ahead of) the believed one
    "fail": 2,  # a JSON run whose provider call fails
    "stream": 12,  # a streamed run read to its end
    "stream_cut": 5,  # a streamed run abandoned after its first delta
    "stream_cut_early": 2,  # a streamed run abandoned right after run.started
    "cancel": 7,  # cancel a run id some client has seen in this slot
    "read": 28,
    "delete": 2,
}
OP_TAG = re.compile(r"\bop-(\d+)\b")
LOOKUP = [{"name": "lookup", "description": "Look something up.", "parameters": {"type": "object"}}]
FUNCTION_OUTPUT = "42"


@dataclass
class OpRecord:
    id: int
    client: int
    kind: str
    session_id: str
    call: float
    ret: float = float("inf")
    revision: int | None = None
    input: str | None = None
    target_run: str | None = None
    started: float | None = None
    """Streams: when run.started arrived (the run was admitted before this)."""
    parent: int | None = None
    """An answer to a paused run: the run's operation."""
    outcome: dict[str, Any] = field(default_factory=dict)
    """``type`` is one of ok, refused, failed, cancelled, disconnected, read, gone, deleted, cancel, unexpected."""


@dataclass
class Slot:
    index: int
    session_id: str
    revision: int = 0
    run_ids: list[str] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


@dataclass
class Workload:
    seed: int
    records: list[OpRecord] = field(default_factory=list)
    sessions: list[str] = field(default_factory=list)
    """Every session the workload created, in creation order."""
    run_sessions: dict[str, str] = field(default_factory=dict)
    """Session of every run id a client saw."""
    created_at: dict[str, float] = field(default_factory=dict)

    def of_session(self, session_id: str) -> list[OpRecord]:
        return [r for r in self.records if r.session_id == session_id]


class _World:
    def __init__(self, http: httpx.AsyncClient, workload: Workload, slots: int, max_sessions: int) -> None:
        self.http = http
        self.workload = workload
        self.slot_count = slots
        self.max_sessions = max_sessions
        self.slots: list[Slot] = []
        self._next_op = 0

    def op_id(self) -> int:
        self._next_op += 1
        return self._next_op

    async def create(self) -> str:
        response = await self.http.post("/v1/sessions", json={"provider": "echo", "model": "echo-1", "mode": "history"})
        assert response.status_code == 201, response.text
        session_id: str = response.json()["session"]["id"]
        self.workload.sessions.append(session_id)
        self.workload.created_at[session_id] = time.monotonic()
        return session_id

    async def start(self) -> None:
        for index in range(self.slot_count):
            self.slots.append(Slot(index, await self.create()))

    async def retire(self, slot: Slot, session_id: str) -> None:
        """Replace the slot's session (once, by whoever notices first), while the budget lasts."""
        async with slot.lock:
            if slot.session_id != session_id or len(self.workload.sessions) >= self.max_sessions:
                return
            slot.session_id = await self.create()
            slot.revision = 0
            slot.run_ids.clear()


def _problem(response: httpx.Response) -> dict[str, Any]:
    try:
        body: dict[str, Any] = response.json()
    except ValueError:
        return {"code": f"HTTP {response.status_code}", "raw": response.text[:200]}
    return body


async def _client(world: _World, index: int, seed: int, operations: int, base: httpx.AsyncClient) -> None:
    import random

    rng = random.Random(f"{seed}:{index}")
    kinds, weights = list(KINDS), list(KINDS.values())
    for _ in range(operations):
        slot = world.slots[rng.randrange(len(world.slots))]
        kind = rng.choices(kinds, weights)[0]
        sleep_ms = rng.choice([0, 0, 5, 20, 40, 60])
        choice = rng.random()
        await _perform(world, base, index, slot, kind, sleep_ms, choice)
        await asyncio.sleep(rng.uniform(0, 0.005))


async def _perform(
    world: _World, http: httpx.AsyncClient, client: int, slot: Slot, kind: str, sleep_ms: int, choice: float
) -> None:
    session_id = slot.session_id
    record = OpRecord(world.op_id(), client, kind, session_id, call=0.0)
    world.workload.records.append(record)
    if kind == "call":
        await _call_and_answer(world, http, client, slot, record, sleep_ms)
    elif kind in ("run", "stale", "fail", "stream", "stream_cut", "stream_cut_early"):
        revision = slot.revision
        if kind == "stale":
            revision = revision - 1 if revision > 0 and choice < 0.8 else revision + 1
        record.revision = revision
        directives = {
            "run": f"!sleep {sleep_ms}\n" if sleep_ms else "",
            "stale": "",
            "fail": "!fail\n",
            "stream": f"!chunks 3\n!sleep {sleep_ms // 3}\n",
            "stream_cut": "!chunks 4\n!sleep 40\n",
            "stream_cut_early": "!chunks 2\n!sleep 40\n",
        }[kind]
        record.input = f"{directives}op-{record.id} by client {client}"
        body = {
            "provider": "echo",
            "model": "echo-1",
            "input": record.input,
            "session": {"id": session_id, "revision": revision},
        }
        if kind.startswith("stream"):
            await _stream(world, http, slot, record, body)
        else:
            await _run(world, http, slot, record, body)
    elif kind == "cancel":
        if not slot.run_ids:
            record.kind = "read"
            await _read(world, http, slot, record)
            return
        record.target_run = slot.run_ids[-1]
        record.session_id = world.workload.run_sessions.get(record.target_run, session_id)
        record.call = time.monotonic()
        response = await http.post(f"/v1/runs/{record.target_run}/cancel")
        record.ret = time.monotonic()
        if response.status_code == 200:
            answer = response.json()
            session = answer.get("session")
            record.outcome = {
                "type": "cancel",
                "modelWorkStarted": answer["modelWorkStarted"],
                "session": None if session is None else (session["revision"], session["status"]),
            }
        elif response.status_code == 404 and _problem(response).get("code") == "RUN_NOT_FOUND":
            record.outcome = {"type": "cancel_missed"}
        else:
            record.outcome = {"type": "unexpected", "status": response.status_code, "body": response.text[:300]}
    elif kind == "read":
        await _read(world, http, slot, record)
    elif kind == "delete":
        record.call = time.monotonic()
        response = await http.delete(f"/v1/sessions/{session_id}")
        record.ret = time.monotonic()
        if response.status_code == 204:
            record.outcome = {"type": "deleted"}
            await world.retire(slot, session_id)
        elif response.status_code == 404 and _problem(response).get("code") == "SESSION_NOT_FOUND":
            record.outcome = {"type": "gone"}
            await world.retire(slot, session_id)
        else:
            record.outcome = {"type": "unexpected", "status": response.status_code, "body": response.text[:300]}


async def _read(world: _World, http: httpx.AsyncClient, slot: Slot | None, record: OpRecord) -> None:
    record.call = time.monotonic()
    response = await http.get(f"/v1/sessions/{record.session_id}")
    record.ret = time.monotonic()
    if response.status_code == 200:
        record.outcome = {"type": "read", "body": response.json()}
        if slot is not None:
            revision = response.json()["session"]["revision"]
            slot.revision = max(slot.revision, revision) if slot.session_id == record.session_id else slot.revision
            if response.json()["session"]["status"] == "interrupted":
                await world.retire(slot, record.session_id)
    elif response.status_code == 404 and _problem(response).get("code") == "SESSION_NOT_FOUND":
        record.outcome = {"type": "gone"}
        if slot is not None:
            await world.retire(slot, record.session_id)
    else:
        record.outcome = {"type": "unexpected", "status": response.status_code, "body": response.text[:300]}


async def _after_problem(world: _World, slot: Slot, record: OpRecord, problem: dict[str, Any]) -> None:
    code = problem.get("code")
    if code in ("SESSION_REVISION_CONFLICT", "SESSION_BUSY", "SESSION_INTERRUPTED", "SESSION_NOT_FOUND") or (
        code == "SESSION_LIMIT_EXCEEDED"
    ):
        record.outcome = {
            "type": "refused",
            "code": code,
            "currentRevision": problem.get("currentRevision"),
            "activeRunId": problem.get("activeRunId"),
        }
        if code == "SESSION_REVISION_CONFLICT" and slot.session_id == record.session_id:
            slot.revision = max(slot.revision, int(problem["currentRevision"]))
        if code == "SESSION_BUSY":
            world.workload.run_sessions[problem["activeRunId"]] = record.session_id
            if slot.session_id == record.session_id:
                slot.run_ids.append(problem["activeRunId"])
        if code in ("SESSION_INTERRUPTED", "SESSION_NOT_FOUND", "SESSION_LIMIT_EXCEEDED"):
            await world.retire(slot, record.session_id)
    elif code in ("PROVIDER_ERROR", "PROVIDER_TIMEOUT"):
        record.outcome = {"type": "failed", "code": code}
        await world.retire(slot, record.session_id)
    elif code == "RUN_CANCELLED":
        record.outcome = {"type": "cancelled", "reason": problem.get("reason")}
        await world.retire(slot, record.session_id)
    else:
        record.outcome = {"type": "unexpected", "problem": problem}


def _succeeded(world: _World, slot: Slot, record: OpRecord, result: dict[str, Any]) -> None:
    session = result["session"]
    record.outcome = {"type": "ok", "run_id": result["id"], "revision": session["revision"]}
    world.workload.run_sessions[result["id"]] = record.session_id
    if slot.session_id == record.session_id:
        slot.revision = max(slot.revision, session["revision"])


async def _call_and_answer(
    world: _World, http: httpx.AsyncClient, client: int, slot: Slot, record: OpRecord, delay_ms: int
) -> None:
    """A run that pauses for the application's function, then (unless someone cancels it first) its answer."""
    record.revision = slot.revision
    record.input = f"!call lookup {{}}\nop-{record.id} by client {client}"
    body = {
        "provider": "echo",
        "model": "echo-1",
        "input": record.input,
        "session": {"id": record.session_id, "revision": record.revision},
        "tools": LOOKUP,
    }
    record.call = time.monotonic()
    response = await http.post("/v1/runs", json=body)
    record.ret = time.monotonic()
    if response.status_code != 200:
        await _after_problem(world, slot, record, _problem(response))
        return
    run = response.json()
    if run.get("status") != "requires_action":
        record.outcome = {"type": "unexpected", "status": 200, "body": response.text[:300]}
        return
    record.outcome = {"type": "paused", "run_id": run["id"]}
    world.workload.run_sessions[run["id"]] = record.session_id
    if slot.session_id == record.session_id:
        slot.run_ids.append(run["id"])
    await asyncio.sleep(delay_ms / 1000)
    answer = OpRecord(world.op_id(), client, "answer", record.session_id, call=0.0, parent=record.id)
    answer.revision = record.revision
    world.workload.records.append(answer)
    call_id = run["requiredAction"]["calls"][0]["callId"]
    results = {"functionResults": [{"callId": call_id, "output": FUNCTION_OUTPUT}]}
    answer.call = time.monotonic()
    response = await http.post(f"/v1/runs/{run['id']}/actions", json=results)
    answer.ret = time.monotonic()
    if response.status_code == 200:
        _succeeded(world, slot, answer, response.json())
        return
    problem = _problem(response)
    if problem.get("code") == "RUN_CANCELLED":
        answer.outcome = {"type": "cancelled", "reason": problem.get("reason")}
    elif problem.get("code") in ("RUN_NOT_FOUND", "RUN_NOT_WAITING"):
        answer.outcome = {"type": "missed", "code": problem["code"]}
    else:
        answer.outcome = {"type": "unexpected", "problem": problem}
    await world.retire(slot, record.session_id)


async def _run(world: _World, http: httpx.AsyncClient, slot: Slot, record: OpRecord, body: dict[str, Any]) -> None:
    record.call = time.monotonic()
    response = await http.post("/v1/runs", json=body)
    record.ret = time.monotonic()
    if response.status_code == 200:
        _succeeded(world, slot, record, response.json())
    else:
        await _after_problem(world, slot, record, _problem(response))


async def _stream(world: _World, http: httpx.AsyncClient, slot: Slot, record: OpRecord, body: dict[str, Any]) -> None:
    cut_after = {"stream_cut": "output.delta", "stream_cut_early": "run.started"}.get(record.kind)
    saw_delta = False
    record.call = time.monotonic()
    async with http.stream("POST", "/v1/runs/stream", json=body) as response:
        if response.status_code != 200:
            await response.aread()
            record.ret = time.monotonic()
            await _after_problem(world, slot, record, _problem(response))
            return
        async for line in response.aiter_lines():
            if not line.startswith("data: "):
                continue
            event = json.loads(line.removeprefix("data: "))
            kind = event["type"]
            if kind == "run.started":
                record.started = time.monotonic()
                world.workload.run_sessions[event["runId"]] = record.session_id
                record.outcome = {"type": "started", "run_id": event["runId"]}
                if slot.session_id == record.session_id:
                    slot.run_ids.append(event["runId"])
            elif kind == "output.delta":
                saw_delta = True
            elif kind == "run.completed":
                record.ret = time.monotonic()
                _succeeded(world, slot, record, event["run"])
                return
            elif kind == "run.failed":
                record.ret = time.monotonic()
                run_id = record.outcome.get("run_id")
                await _after_problem(world, slot, record, event["problem"])
                record.outcome["run_id"] = run_id
                return
            if kind == cut_after:
                break  # leaving the block closes the connection mid-stream
    run_id = record.outcome.get("run_id")
    record.outcome = {"type": "disconnected", "run_id": run_id, "saw_delta": saw_delta}
    record.ret = float("inf")
    await world.retire(slot, record.session_id)


async def run_workload(
    base_url: str,
    token: str,
    *,
    seed: int,
    clients: int,
    operations: int,
    slots: int,
    max_sessions: int,
    before_final_reads: Callable[[], Any] | None = None,
    event_hooks: dict[str, list[Callable[..., Any]]] | None = None,
) -> Workload:
    """Drive the workload, then read every session the workload created (recorded as reads too).

    ``event_hooks`` go to every httpx client (through a proxy, one adds the ``Agentic-Host`` header)."""
    workload = Workload(seed)
    headers = {"Authorization": f"Bearer {token}"}
    timeout = httpx.Timeout(30.0)
    options: dict[str, Any] = {"headers": headers, "timeout": timeout, "trust_env": False, "event_hooks": event_hooks}
    async with httpx.AsyncClient(base_url=base_url, **options) as setup:
        world = _World(setup, workload, slots, max_sessions)
        await world.start()
        pools = [httpx.AsyncClient(base_url=base_url, **options) for _ in range(clients)]
        try:
            await asyncio.gather(*(_client(world, index, seed, operations, pools[index]) for index in range(clients)))
        finally:
            for pool in pools:
                await pool.aclose()
        if before_final_reads is not None:
            await before_final_reads()
        for session_id in workload.sessions:
            record = OpRecord(world.op_id(), -1, "read", session_id, call=0.0)
            workload.records.append(record)
            await _read(world, setup, None, record)
    return workload
