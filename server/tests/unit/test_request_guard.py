"""RequestGuard bounds the arrival of a request body, unless the server says the body already arrived."""

from __future__ import annotations

import asyncio

import pytest
from starlette.types import Message, Receive, Scope, Send

from agentic_driver.errors import RequestTimeout
from agentic_driver.http.limits import BODY_RECEIVED, Drain, RequestGuard
from agentic_driver.metrics import Metrics


def guard_seeing(seen: list[Receive], *, body_timeout_ms: int = 50) -> RequestGuard:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(receive)
        await receive()

    return RequestGuard(app, body_timeout_ms=body_timeout_ms, drain=Drain(), metrics=Metrics())


def http_scope(**extra: object) -> Scope:
    return {"type": "http", "method": "POST", "path": "/v1/runs", "headers": [], **extra}


async def never_sent(message: Message) -> None:
    raise AssertionError("nothing is sent")


async def test_a_body_the_server_already_received_is_read_without_a_deadline() -> None:
    seen: list[Receive] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    await guard_seeing(seen)(http_scope(**{BODY_RECEIVED: True}), receive, never_sent)

    assert seen == [receive]  # passed through untouched


async def test_a_body_still_arriving_is_bounded_in_time() -> None:
    seen: list[Receive] = []

    async def receive() -> Message:
        await asyncio.Event().wait()  # the client never sends its body
        raise AssertionError("unreachable")

    with pytest.raises(RequestTimeout):
        await asyncio.wait_for(guard_seeing(seen)(http_scope(), receive, never_sent), 5)

    assert seen and seen[0] is not receive


@pytest.mark.parametrize(
    ("method", "path", "refused"),
    [
        ("POST", "/v1/sessions", True),
        ("POST", "/v1/runs", True),
        ("POST", "/v1/runs/stream", True),
        ("POST", "/v1/sessions/ses_h.abc/fork", True),  # a fork creates a session
        ("POST", "/v1/sessions/ses_h.abc/truncate", False),
        ("GET", "/v1/sessions/ses_h.abc", False),
        ("DELETE", "/v1/sessions/ses_h.abc", False),
        ("POST", "/v1/runs/run_h.abc/actions", False),
        ("POST", "/v1/runs/run_h.abc/cancel", False),
    ],
)
async def test_a_draining_host_refuses_new_work_only(method: str, path: str, refused: bool) -> None:
    reached: list[str] = []
    sent: list[Message] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        reached.append(scope["path"])

    async def receive() -> Message:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    drain = Drain()
    drain.begin()
    guard = RequestGuard(app, body_timeout_ms=1000, drain=drain, metrics=Metrics())
    await guard({**http_scope(), "method": method, "path": path}, receive, send)

    assert reached == ([] if refused else [path])
    if refused:
        assert sent[0]["status"] == 503
        assert b"SHUTTING_DOWN" in b"".join(m.get("body", b"") for m in sent)
