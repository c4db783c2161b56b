"""The floor: the least a session host can do behind the same routes and JSON shapes.

A plain Starlette app under the same uvicorn settings as ``agentic-driver serve``
(``uvicorn.run(app, host, port, access_log=False)``, so the same uvloop and
httptools). It checks the bearer token, parses the JSON body, keeps sessions in
a dict, checks the revision, appends the two visible messages and a turn record,
and answers with the host's JSON shapes (``SessionInfo``, ``RunResult``,
``ReadSessionResponse``, streamed ``run.started`` / ``output.delta`` /
``run.completed`` events). No validation models, no limits, no retention timers,
no provider abstraction, no metrics: whatever the host spends beyond this is
what its features cost.

    python -m harness.floor --port 8081   # token from AGENTIC_DRIVER_TOKEN
"""

from __future__ import annotations

import argparse
import hmac
import os
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any

import orjson
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

__all__ = ["create_app", "main"]

HOST_ID = "local-host"
RETENTION_MS = 24 * 60 * 60 * 1000
PROVIDER, MODEL = "echo", "echo-1"
JSON = "application/json"


def _timestamp(ms: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + f".{ms % 1000:03d}Z"


def _problem(status: int, code: str, detail: str) -> Response:
    body = {
        "type": f"https://agentic-driver.dev/problems/{code}",
        "title": code,
        "status": status,
        "code": code,
        "detail": detail,
    }
    return Response(orjson.dumps(body), status_code=status, media_type="application/problem+json")


def create_app(token: str) -> Starlette:
    expected = f"Bearer {token}".encode()
    sessions: dict[str, dict[str, Any]] = {}

    def authorized(request: Request) -> bool:
        return hmac.compare_digest(request.headers.get("authorization", "").encode(), expected)

    def new_session(mode: str) -> dict[str, Any]:
        now = int(time.time() * 1000)
        stamp = _timestamp(now)
        info = {
            "id": "ses_" + secrets.token_urlsafe(16),
            "revision": 0,
            "status": "ready",
            "provider": PROVIDER,
            "model": MODEL,
            "mode": mode,
            "createdAt": stamp,
            "updatedAt": stamp,
            "expiresAt": _timestamp(now + RETENTION_MS),
            "messageCount": 0,
            "recordBytes": 0,
            "hostId": HOST_ID,
        }
        record = {"info": info, "history": [], "turns": []}
        sessions[info["id"]] = record
        return record

    def turn(record: dict[str, Any], text: str) -> dict[str, Any]:
        """Commit one echo turn; returns the RunResult."""
        info, history = record["info"], record["history"]
        reply = "echo: " + text
        run_id = "run_" + secrets.token_urlsafe(16)
        sent = sum(len(m["content"].split()) for m in history) + len(text.split())
        start = len(history)
        user, assistant = {"role": "user", "content": text}, {"role": "assistant", "content": reply}
        history.append(user)
        history.append(assistant)
        now = int(time.time() * 1000)
        info["revision"] += 1
        info["updatedAt"] = _timestamp(now)
        info["expiresAt"] = _timestamp(now + RETENTION_MS)
        info["messageCount"] = len(history)
        info["recordBytes"] += len(orjson.dumps(user)) + len(orjson.dumps(assistant))
        record["turns"].append(
            {
                "revision": info["revision"],
                "runId": run_id,
                "start": start,
                "end": len(history),
                "at": info["updatedAt"],
            }
        )
        return {
            "id": run_id,
            "status": "completed",
            "output": {"text": reply},
            "usage": {"inputTokens": sent, "outputTokens": len(reply.split())},
            "session": info,
        }

    async def admitted(request: Request) -> tuple[dict[str, Any], str] | Response:
        if not authorized(request):
            return _problem(401, "UNAUTHENTICATED", "A valid bearer token is required.")
        body = orjson.loads(await request.body())
        handle = body.get("session") or {}
        record = sessions.get(handle.get("id", ""))
        if record is None or body.get("provider") != PROVIDER or body.get("model") != MODEL:
            return _problem(404, "SESSION_NOT_FOUND", "No such session.")
        if handle.get("revision") != record["info"]["revision"]:
            return _problem(409, "SESSION_REVISION_CONFLICT", "Stale revision.")
        return record, body["input"]

    async def healthz(request: Request) -> Response:
        return Response(b'{"status":"ok"}', media_type=JSON)

    async def openapi_json(request: Request) -> Response:
        return Response(OPENAPI, media_type=JSON)

    async def create_session(request: Request) -> Response:
        if not authorized(request):
            return _problem(401, "UNAUTHENTICATED", "A valid bearer token is required.")
        body = orjson.loads(await request.body())
        if body.get("provider") != PROVIDER or body.get("model") != MODEL:
            return _problem(404, "PROVIDER_NOT_FOUND", "No such provider or model.")
        record = new_session(body.get("mode", "history"))
        return Response(orjson.dumps({"session": record["info"]}), status_code=201, media_type=JSON)

    async def read_session(request: Request) -> Response:
        if not authorized(request):
            return _problem(401, "UNAUTHENTICATED", "A valid bearer token is required.")
        record = sessions.get(request.path_params["session_id"])
        if record is None:
            return _problem(404, "SESSION_NOT_FOUND", "No such session.")
        body = {"session": record["info"], "instructions": None, "history": record["history"], "turns": record["turns"]}
        return Response(orjson.dumps(body), media_type=JSON)

    async def delete_session(request: Request) -> Response:
        if not authorized(request):
            return _problem(401, "UNAUTHENTICATED", "A valid bearer token is required.")
        if sessions.pop(request.path_params["session_id"], None) is None:
            return _problem(404, "SESSION_NOT_FOUND", "No such session.")
        return Response(status_code=204)

    async def run(request: Request) -> Response:
        admission = await admitted(request)
        if isinstance(admission, Response):
            return admission
        return Response(orjson.dumps(turn(*admission)), media_type=JSON)

    async def run_stream(request: Request) -> Response:
        admission = await admitted(request)
        if isinstance(admission, Response):
            return admission
        record, text = admission

        async def events() -> AsyncIterator[bytes]:
            run_id = "run_" + secrets.token_urlsafe(16)
            started = {"type": "run.started", "runId": run_id, "session": record["info"]}
            yield b"id: 1\nevent: run.started\ndata: " + orjson.dumps(started) + b"\n\n"
            result = turn(record, text)
            delta = {"type": "output.delta", "runId": result["id"], "text": result["output"]["text"]}
            yield b"id: 2\nevent: output.delta\ndata: " + orjson.dumps(delta) + b"\n\n"
            completed = {"type": "run.completed", "run": result}
            yield b"id: 3\nevent: run.completed\ndata: " + orjson.dumps(completed) + b"\n\n"

        return StreamingResponse(events(), media_type="text/event-stream")

    return Starlette(
        routes=[
            Route("/healthz", healthz, methods=["GET"]),
            Route("/openapi.json", openapi_json, methods=["GET"]),
            Route("/v1/sessions", create_session, methods=["POST"]),
            Route("/v1/sessions/{session_id}", read_session, methods=["GET"]),
            Route("/v1/sessions/{session_id}", delete_session, methods=["DELETE"]),
            Route("/v1/runs", run, methods=["POST"]),
            Route("/v1/runs/stream", run_stream, methods=["POST"]),
        ]
    )


OPENAPI = orjson.dumps(
    {
        "openapi": "3.1.0",
        "info": {"title": "Agentic Driver floor (bench)", "version": "0"},
        "paths": {
            p: {} for p in ("/healthz", "/v1/sessions", "/v1/sessions/{sessionId}", "/v1/runs", "/v1/runs/stream")
        },
    }
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m harness.floor", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8081)
    options = parser.parse_args(argv)
    token = os.environ["AGENTIC_DRIVER_TOKEN"]
    # The same call agentic_driver.cli.serve makes; log level as the harness runs the host.
    uvicorn.run(create_app(token), host=options.host, port=options.port, log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
