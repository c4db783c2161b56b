"""Routing (``clients/BEHAVIOUR.md``, Routing): ``Agentic-Host`` from the id, one 421 followed, HOST_UNAVAILABLE."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

import agentic_driver_sdk as sdk
from agentic_driver_sdk._base import host_of

from .conftest import Driver, d, mock_client, problem

ECHO = {"provider": "echo", "model": "echo-1"}
SESSION = "ses_alpha-1.k3Jx9_Qw-Zp0aBcDeFgHiJ"
RUN = "run_beta.AAECAwQFBgcICQoLDA0ODw"
CANCELLED = {"id": RUN, "status": "cancelled", "modelWorkStarted": False}


@pytest.mark.parametrize(
    ("object_id", "host"),
    [
        (SESSION, "alpha-1"),
        (RUN, "beta"),
        ("ses_a.x", "a"),
        ("ses_0.x", "0"),
        ("ses_" + "a" * 63 + ".x", "a" * 63),
        ("run_host-7.with.more.dots", "host-7"),
        ("ses_k3Jx9_Qw-Zp0aBcDeFgHiJ", None),  # an old id: no host part
        ("ses_" + "a" * 64 + ".x", None),  # longer than a DNS label
        ("ses_Alpha.x", None),  # upper case
        ("ses_-alpha.x", None),  # a leading hyphen
        ("ses_alpha-.x", None),  # a trailing hyphen
        ("ses_al_pha.x", None),  # an underscore
        ("ses_.x", None),  # an empty host
        ("ses_alpha.", "alpha"),  # the host reads only what comes before the first dot
        ("sess_alpha.x", None),  # not a session or run prefix
        ("alpha.x", None),
        ("", None),
    ],
)
def test_the_host_of_an_id(object_id: str, host: str | None) -> None:
    assert host_of(object_id) == host


class Recorder:
    """A mock host: records every request; ``answers`` are consumed in order, then ``otherwise`` answers."""

    def __init__(self, answers: list[httpx.Response], otherwise: Callable[[httpx.Request], httpx.Response]) -> None:
        self.requests: list[httpx.Request] = []
        self.answers = list(answers)
        self.otherwise = otherwise

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.answers.pop(0) if self.answers else self.otherwise(request)

    def hosts(self) -> list[str | None]:
        return [r.headers.get("agentic-host") for r in self.requests]


def not_found(request: httpx.Request) -> httpx.Response:
    return problem(404, "SESSION_NOT_FOUND")


def misdirected(answered_by: str = "other-host", owner: str = "alpha-1") -> httpx.Response:
    return problem(421, "MISDIRECTED_REQUEST", hostId=answered_by, ownerHostId=owner)


def unavailable(owner: str = "alpha-1") -> httpx.Response:
    return problem(503, "HOST_UNAVAILABLE", {"Retry-After": "1"}, ownerHostId=owner, retryAfterSeconds=1)


async def attempt(kind: str, call: Callable[[], Any]) -> None:
    """Make a call (a stream is opened) whose outcome the test does not check: the mock refuses it."""
    with pytest.raises(sdk.APIStatusError):
        value = call()
        if isinstance(value, sdk.RunStream | sdk.AsyncRunStream):
            await Driver(kind, None, None).collect(value)  # type: ignore[arg-type]
        else:
            await d(value)


async def test_requests_that_name_a_session_or_run_carry_its_host(kind: str) -> None:
    recorder = Recorder([], not_found)
    client = mock_client(kind, recorder)
    handle = {"id": SESSION, "revision": 0}
    calls: list[tuple[str, Callable[[], Any], str | None]] = [
        ("discovery", client.discovery, None),
        ("create", lambda: client.sessions.create(**ECHO), None),
        ("stateless run", lambda: client.run(**ECHO, input="x"), None),
        ("stateless stream", lambda: client.runs.stream(**ECHO, input="x"), None),
        ("session run", lambda: client.run(**ECHO, input="x", session=handle), "alpha-1"),
        ("session stream", lambda: client.runs.stream(**ECHO, input="x", session=handle), "alpha-1"),
        ("read", lambda: client.sessions.read(SESSION), "alpha-1"),
        ("truncate", lambda: client.sessions.truncate(handle, keep_turns=0), "alpha-1"),
        ("fork", lambda: client.sessions.fork(handle, revision=0), "alpha-1"),
        ("fork by id", lambda: client.sessions.fork(SESSION), "alpha-1"),
        ("delete", lambda: client.sessions.delete(SESSION), "alpha-1"),
        ("actions", lambda: client.runs.submit_actions(RUN, approvals={"c": True}), "beta"),
        ("actions stream", lambda: client.runs.stream_actions(RUN, approvals={"c": True}), "beta"),
        ("cancel", lambda: client.runs.cancel(RUN), "beta"),
        ("old session id", lambda: client.sessions.read("ses_k3Jx9_Qw-Zp0aBcDeFgHiJ"), None),
        ("old session id fork", lambda: client.sessions.fork("ses_k3Jx9_Qw-Zp0aBcDeFgHiJ"), None),
        ("old run id", lambda: client.runs.cancel("run_AAECAwQFBgcICQoLDA0ODw"), None),
    ]
    for name, call, _ in calls:
        before = len(recorder.requests)
        await attempt(kind, call)
        assert len(recorder.requests) == before + 1, name
    await d(client.close())
    assert [(name, host) for (name, _, _), host in zip(calls, recorder.hosts(), strict=True)] == [
        (name, host) for name, _, host in calls
    ]


async def test_a_421_is_followed_once_at_once_to_the_owner_with_the_same_key(kind: str, no_sleep: list[float]) -> None:
    recorder = Recorder([misdirected(owner="gamma")], lambda request: httpx.Response(200, json=CANCELLED))
    client = mock_client(kind, recorder, max_retries=0)  # the follow is not one of the retries
    answer = await d(client.runs.cancel(RUN))
    await d(client.close())
    assert answer.id == RUN
    assert recorder.hosts() == ["beta", "gamma"]
    assert no_sleep == [], "the follow does not wait"


async def test_a_followed_session_run_keeps_its_idempotency_key_and_body(kind: str) -> None:
    recorder = Recorder([misdirected(), misdirected()], not_found)
    client = mock_client(kind, recorder)
    with pytest.raises(sdk.MisdirectedRequestError):
        await d(client.run(**ECHO, input="once", session={"id": SESSION, "revision": 3}))
    await d(client.close())
    assert len(recorder.requests) == 2
    assert len({r.headers["idempotency-key"] for r in recorder.requests}) == 1
    first, second = (json.loads(r.content) for r in recorder.requests)
    assert first == second and first["session"] == {"id": SESSION, "revision": 3}


async def test_a_second_421_is_the_typed_error_with_both_hosts(kind: str) -> None:
    recorder = Recorder([], lambda request: misdirected(answered_by="delta", owner="alpha-1"))
    client = mock_client(kind, recorder)
    with pytest.raises(sdk.MisdirectedRequestError) as caught:
        await d(client.sessions.read(SESSION))
    await d(client.close())
    assert len(recorder.requests) == 2, "one follow, and 421 is not in the retry table"
    error = caught.value
    assert (error.status_code, error.code, error.host_id, error.owner_host_id) == (
        421,
        "MISDIRECTED_REQUEST",
        "delta",
        "alpha-1",
    )
    assert isinstance(error, sdk.APIStatusError) and isinstance(error, sdk.AgenticDriverError)


async def test_a_421_after_a_retry_is_still_followed_and_later_retries_keep_the_owner(
    kind: str, no_sleep: list[float]
) -> None:
    busy = problem(503, "HOST_BUSY", {"Retry-After": "0"})
    recorder = Recorder([busy, misdirected(owner="gamma"), busy], not_found)
    client = mock_client(kind, recorder)
    with pytest.raises(sdk.SessionNotFoundError):
        await d(client.sessions.read(SESSION))
    await d(client.close())
    assert recorder.hosts() == ["alpha-1", "alpha-1", "gamma", "gamma"]
    assert no_sleep == [0.0, 0.0], "two retries, the follow between them not counted"


async def test_a_421_without_a_usable_owner_is_not_followed(kind: str) -> None:
    recorder = Recorder([], lambda request: misdirected(owner="Not A Label"))
    client = mock_client(kind, recorder)
    with pytest.raises(sdk.MisdirectedRequestError):
        await d(client.sessions.read(SESSION))
    incomplete = problem(421, "MISDIRECTED_REQUEST", hostId="delta")
    recorder.otherwise = lambda request: incomplete
    with pytest.raises(sdk.APIStatusError) as caught:
        await d(client.sessions.read(SESSION))
    await d(client.close())
    assert len(recorder.requests) == 2, "neither 421 was followed"
    assert type(caught.value) is sdk.APIStatusError and caught.value.code == "MISDIRECTED_REQUEST"


async def test_a_streamed_run_follows_a_421_before_its_head(kind: str) -> None:
    events = 'event: later.kind\ndata: {"type": "later.kind", "n": 1}\n\n' * 2  # kept as UnknownEvent
    stream = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=events.encode())
    recorder = Recorder([misdirected(owner="gamma"), stream], not_found)
    client = mock_client(kind, recorder)
    handle = {"id": SESSION, "revision": 0}
    seen = await Driver(kind, client, None).collect(client.runs.stream(**ECHO, input="x", session=handle))  # type: ignore[arg-type]
    await d(client.close())
    assert recorder.hosts() == ["alpha-1", "gamma"]
    assert [type(e).__name__ for e in seen] == ["UnknownEvent", "UnknownEvent"]


async def test_host_unavailable_is_retried_after_retry_after_then_typed(kind: str, no_sleep: list[float]) -> None:
    recorder = Recorder([], lambda request: unavailable())
    client = mock_client(kind, recorder)
    with pytest.raises(sdk.HostUnavailableError) as caught:
        await d(client.sessions.read(SESSION))
    await d(client.close())
    assert len(recorder.requests) == 3 and no_sleep == [1.0, 1.0]
    assert (caught.value.status_code, caught.value.owner_host_id, caught.value.retry_after) == (503, "alpha-1", 1.0)
    assert isinstance(caught.value, sdk.InternalServerError)
