"""``sessions.fork`` (``forkSession``): keyed and retried as ``sessions.create`` is, routed by the session id as
``sessions.truncate`` is (mock transports), and end to end against a live host (both clients)."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest

import agentic_driver_sdk as sdk
from agentic_driver_client.models import SessionHandle, SessionInfo
from agentic_driver_client.types import UNSET

from .conftest import NO_GRANTS, Host, Seen, config, d, driver_for, mock_client, problem, recording, wait_for_status
from .test_package import SESSION as SESSION_WIRE

ECHO = {"provider": "echo", "model": "echo-1"}
SOURCE = "ses_alpha-1.k3Jx9_Qw-Zp0aBcDeFgHiJ"
FORK = "ses_alpha-1.Qm3vT8pLx1nR6sK0dW4aZe"
FORKED = {"session": {**SESSION_WIRE, "id": FORK, "revision": 2, "hostId": "alpha-1"}}
"""A ``CreateSessionResponse`` whose session is the fork, as the host answers ``201``."""


def created(request: httpx.Request | None = None) -> httpx.Response:
    return httpx.Response(201, json=FORKED)


class Recorder:
    """A mock host: records every request; ``answers`` are consumed in order, then ``otherwise`` answers."""

    def __init__(
        self, answers: list[httpx.Response | Exception], otherwise: Callable[[httpx.Request], httpx.Response]
    ) -> None:
        self.requests: list[httpx.Request] = []
        self.answers = list(answers)
        self.otherwise = otherwise

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if not self.answers:
            return self.otherwise(request)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    def idempotency_keys(self) -> list[str | None]:
        return [r.headers.get("idempotency-key") for r in self.requests]

    def hosts(self) -> list[str | None]:
        return [r.headers.get("agentic-host") for r in self.requests]

    def bodies(self) -> list[Any]:
        return [json.loads(r.content) for r in self.requests]


# -- the request -----------------------------------------------------------------------------------------------------


def _info(session_id: str, revision: int) -> SessionInfo:
    return SessionInfo.from_dict({**SESSION_WIRE, "id": session_id, "revision": revision})


@pytest.mark.parametrize(
    "session",
    [
        SOURCE,
        _info(SOURCE, 7),
        SessionHandle(id=SOURCE, revision=7),
        {"id": SOURCE, "revision": 7},
        {"id": SOURCE},
    ],
    ids=["id", "SessionInfo", "SessionHandle", "dict", "dict without revision"],
)
@pytest.mark.parametrize(("revision", "body"), [(None, {}), (0, {"revision": 0}), (2, {"revision": 2})])
async def test_the_fork_request(kind: str, session: Any, revision: int | None, body: dict[str, Any]) -> None:
    """Only the id of a handle is read: the boundary is ``revision`` (None: the host's current revision)."""
    recorder = Recorder([], created)
    client = mock_client(kind, recorder)
    fork = await d(client.sessions.fork(session, revision=revision))
    await d(client.close())
    assert isinstance(fork, SessionInfo) and (fork.id, fork.revision) == (FORK, 2)
    (request,) = recorder.requests
    assert (request.method, request.url.path) == ("POST", f"/v1/sessions/{SOURCE}/fork")
    assert json.loads(request.content) == body
    assert request.headers["content-type"] == "application/json"
    assert request.headers["agentic-host"] == "alpha-1", "routed by the session id, as truncate is"
    assert uuid.UUID(request.headers["idempotency-key"]).version == 4, "keyed as create is"


async def test_an_id_is_sent_percent_encoded_and_an_old_one_names_no_host(kind: str) -> None:
    recorder = Recorder([], created)
    client = mock_client(kind, recorder)
    await d(client.sessions.fork("ses_k3Jx9/Qw"))
    await d(client.close())
    assert recorder.requests[0].url.raw_path == b"/v1/sessions/ses_k3Jx9%2FQw/fork"
    assert recorder.hosts() == [None]


async def test_an_unset_or_empty_session_is_refused_before_any_request(kind: str) -> None:
    recorder = Recorder([], created)
    client = mock_client(kind, recorder)
    with pytest.raises(ValueError, match="stateless run"):
        await d(client.sessions.fork(UNSET))
    with pytest.raises(ValueError, match="session_id"):
        await d(client.sessions.fork(""))
    await d(client.close())
    assert recorder.requests == []


async def test_each_fork_has_its_own_key_and_the_callers_key_wins(kind: str) -> None:
    recorder = Recorder([], created)
    client = mock_client(kind, recorder)
    await d(client.sessions.fork(SOURCE))
    await d(client.sessions.fork(SOURCE))
    await d(client.sessions.fork(SOURCE, idempotency_key="fork-chosen-by-the-caller"))
    await d(client.close())
    keys = recorder.idempotency_keys()
    assert len(set(keys)) == 3 and keys[2] == "fork-chosen-by-the-caller"


async def test_a_fork_keeps_its_key_and_body_across_retries_and_the_421_hop(kind: str, no_sleep: list[float]) -> None:
    recorder = Recorder(
        [
            problem(503, "HOST_BUSY", {"Retry-After": "0"}),
            problem(421, "MISDIRECTED_REQUEST", hostId="other-host", ownerHostId="gamma"),
            httpx.ReadError("connection reset (injected)"),
            problem(503, "SESSION_STORE_FULL", {"Retry-After": "0"}, retryAfterSeconds=0),
        ],
        created,
    )
    client = mock_client(kind, recorder, max_retries=3)
    fork = await d(client.sessions.fork(SOURCE, revision=1))
    await d(client.close())
    assert fork.id == FORK
    assert len(recorder.requests) == 5
    keys = recorder.idempotency_keys()
    assert len(set(keys)) == 1 and None not in keys, "one key for every attempt"
    assert recorder.bodies() == [{"revision": 1}] * 5
    assert recorder.hosts() == ["alpha-1", "alpha-1", "gamma", "gamma", "gamma"], "the 421 is followed once"
    assert len(no_sleep) == 3, "three retries; the follow is not one of them and does not wait"


async def test_a_caller_key_is_kept_across_a_retry(kind: str, no_sleep: list[float]) -> None:
    recorder = Recorder([httpx.ConnectError("refused (injected)")], created)
    client = mock_client(kind, recorder)
    await d(client.sessions.fork({"id": SOURCE, "revision": 3}, idempotency_key="mine-1"))
    await d(client.close())
    assert recorder.idempotency_keys() == ["mine-1", "mine-1"] and len(no_sleep) == 1


def _failure(
    seen: Seen, status: int | None, code: str | None, headers: dict[str, str], fields: dict[str, Any] | None
) -> Callable[[httpx.Request], httpx.Response]:
    """Every attempt fails the same way: an answer (``PAGE``: a proxy's page, not ours) or an httpx failure."""

    def answer(request: httpx.Request) -> httpx.Response:
        seen.add(request)
        if status is None:  # a transport failure named by its httpx class
            raise getattr(httpx, code or "")("injected", request=request)
        if code == "PAGE":
            return httpx.Response(status, headers={"content-type": "text/html"}, text="<h1>Bad Gateway</h1>")
        return problem(status, code, headers, **(fields or {}))

    return answer


@pytest.mark.parametrize(
    ("status", "code", "headers", "fields", "attempts", "error"),
    [
        (503, "HOST_BUSY", {"Retry-After": "0"}, None, 3, sdk.HostBusyError),
        (429, "HOST_BUSY", {"Retry-After": "0"}, None, 3, sdk.HostBusyError),
        (503, "SESSION_STORE_FULL", {"Retry-After": "0"}, None, 3, sdk.SessionStoreFullError),
        (503, "SHUTTING_DOWN", {"Retry-After": "0"}, None, 3, sdk.ShuttingDownError),
        (503, "HOST_UNAVAILABLE", {"Retry-After": "0"}, {"ownerHostId": "alpha-1"}, 3, sdk.HostUnavailableError),
        (409, "IDEMPOTENCY_KEY_IN_USE", {"Retry-After": "0"}, None, 3, sdk.APIStatusError),
        (502, "PAGE", {}, None, 3, sdk.InternalServerError),
        (504, "PAGE", {}, None, 3, sdk.InternalServerError),
        (None, "ConnectError", {}, None, 3, sdk.APIConnectionError),
        (None, "ConnectTimeout", {}, None, 3, sdk.APITimeoutError),
        (None, "ReadError", {}, None, 3, sdk.APIConnectionError),
        (None, "ReadTimeout", {}, None, 1, sdk.APITimeoutError),  # a POST that may have been accepted
        (503, "HOST_BUSY", {"Retry-After": "0", "x-should-retry": "false"}, None, 1, sdk.HostBusyError),
        (503, "HOST_BUSY", {"Retry-After": "120"}, None, 1, sdk.HostBusyError),  # longer than 60 s: the caller's
        (409, "SESSION_BUSY", {"Retry-After": "1"}, {"activeRunId": "run_alpha-1.x"}, 1, sdk.SessionBusyError),
        (
            409,
            "SESSION_REVISION_CONFLICT",
            {"x-should-retry": "false"},
            {"currentRevision": 4},
            1,
            sdk.SessionRevisionConflictError,
        ),
        (404, "SESSION_NOT_FOUND", {}, None, 1, sdk.SessionNotFoundError),
        (403, "PERMISSION_DENIED", {}, None, 1, sdk.PermissionDeniedError),
        (422, "VALIDATION_ERROR", {}, None, 1, sdk.ValidationError),
        (422, "IDEMPOTENCY_KEY_REUSED", {}, None, 1, sdk.APIStatusError),
        (501, "SESSIONS_DISABLED", {}, None, 1, sdk.SessionsDisabledError),
        (500, "INTERNAL_ERROR", {}, None, 1, sdk.InternalError),
    ],
)
async def test_a_fork_is_retried_exactly_as_create_is(
    kind: str,
    no_sleep: list[float],
    status: int | None,
    code: str | None,
    headers: dict[str, str],
    fields: dict[str, Any] | None,
    attempts: int,
    error: type[Exception],
) -> None:
    calls: dict[str, Callable[[Any], Any]] = {
        "create": lambda client: client.sessions.create(**ECHO),
        "fork": lambda client: client.sessions.fork(SOURCE),
    }
    raised: dict[str, type[Exception]] = {}
    counted: dict[str, int] = {}
    for name, call in calls.items():
        seen = Seen()
        client = mock_client(kind, _failure(seen, status, code, headers, fields))
        with pytest.raises(error) as caught:
            await d(call(client))
        await d(client.close())
        raised[name], counted[name] = type(caught.value), len(seen.requests)
        assert len({r.headers["idempotency-key"] for r in seen.requests}) == 1, name
    assert counted == {"create": attempts, "fork": attempts}
    assert raised["fork"] is raised["create"]


async def test_with_raw_response_gives_the_201_and_the_fork(kind: str) -> None:
    client = mock_client(kind, created)
    raw = await d(client.with_raw_response.sessions.fork(SOURCE, revision=2))
    await d(client.close())
    assert raw.status_code == 201 and raw.parse().id == FORK


# -- against a live host ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def fork_host(launch: Callable[[str, dict[str, Any]], Host]) -> Host:
    """Only this file's sessions, so its store gauge counts the forks made here."""
    return launch("fork", config("sdk-fork"))


def stored(host: Host) -> int:
    return int(sum(v for name, _, v in host.metrics() if name == "agentic_driver_sessions_stored"))


async def test_a_fork_at_the_current_revision_and_at_a_boundary_continue_apart(kind: str, fork_host: Host) -> None:
    seen = Seen()
    async with driver_for(kind, fork_host, transport=recording(kind, seen)) as driver:
        client = driver.client
        session = await d(client.sessions.create(**ECHO, mode="native", instructions="Be brief."))
        first = await d(client.run(**ECHO, input="My name is Ada.", session=session))
        second = await d(client.run(**ECHO, input="I like tea.", session=first.session))
        now = await d(client.run(**ECHO, input="I like coffee.", session=second.session))
        source = await d(client.sessions.read(session.id))

        current = await d(client.sessions.fork(session.id))
        at_one = await d(client.sessions.fork(now.session, revision=1))
        imported = await d(client.sessions.fork({"id": session.id}, revision=0))

        assert len({session.id, current.id, at_one.id, imported.id}) == 4
        assert all(f.id.startswith("ses_sdk-fork.") for f in (current, at_one, imported)), "on the source's host"
        assert (current.revision, current.message_count, str(current.status)) == (3, 6, "ready")
        assert (at_one.revision, at_one.message_count, str(at_one.mode)) == (1, 2, "native")
        assert (imported.revision, imported.message_count) == (0, 0)
        assert (current.provider, current.model, current.run_count) == ("echo", "echo-1", 0)
        assert current.usage.input_tokens == 0, "the fork's own accounting starts at zero"
        forked = await d(client.sessions.read(at_one.id))
        assert forked.instructions == "Be brief."
        assert [m.content for m in forked.history] == [m.content for m in source.history[:2]]
        assert [t.to_dict() for t in forked.turns] == [t.to_dict() for t in source.turns[:1]]

        # the fork goes on by itself from its boundary, and the source does not move
        recall = await d(client.run(**ECHO, input="!recall", session=at_one))
        assert recall.output.text == "recall: 2 messages; last user: My name is Ada."
        assert recall.session.id == at_one.id and recall.session.revision == 2
        assert (await d(client.sessions.read(session.id))).to_dict() == source.to_dict()
        # and the source goes on by itself: the fork's turn is not in it
        onward = await d(client.run(**ECHO, input="!recall", session=now.session))
        assert onward.output.text == "recall: 6 messages; last user: I like coffee."
        assert [m.content for m in (await d(client.sessions.read(at_one.id))).history] == [
            "My name is Ada.",
            "echo: My name is Ada.",
            "!recall",
            "recall: 2 messages; last user: My name is Ada.",
        ]
        # forking a fork works the same way
        again = await d(client.sessions.fork(recall.session, revision=recall.session.revision))
        assert (again.revision, again.message_count) == (2, 4)

    forks = [r for r in seen.requests if r.url.path.endswith("/fork")]
    assert len(forks) == 4
    assert {r.headers.get("agentic-host") for r in forks} == {"sdk-fork"}
    assert len({r.headers["idempotency-key"] for r in forks}) == 4, "one key per logical call"


async def test_a_busy_source_raises_session_busy_unretried_then_forks_once_idle(kind: str, fork_host: Host) -> None:
    seen = Seen()
    async with (
        driver_for(kind, fork_host) as driver,
        driver_for(kind, fork_host, max_retries=5, transport=recording(kind, seen)) as plain,
    ):
        session = await d(driver.client.sessions.create(**ECHO))
        slow = driver.background(lambda: driver.client.run(**ECHO, input="!sleep 1200\nfirst", session=session))
        await wait_for_status(driver, session.id, "running")
        with pytest.raises(sdk.SessionBusyError) as caught:
            await d(plain.client.sessions.fork(session.id))
        busy = caught.value
        assert (busy.status_code, busy.code) == (409, "SESSION_BUSY")
        assert busy.active_run_id.startswith("run_sdk-fork.") and busy.retry_after == 1.0
        read = await d(plain.client.sessions.wait_until_idle(session.id, busy=busy, timeout=10))
        fork = await d(plain.client.sessions.fork(read.session))
        assert (fork.revision, fork.message_count) == (1, 2)
        assert (await asyncio.wait_for(slow, 10)).session.revision == 1
    assert len(seen.posts(f"/v1/sessions/{session.id}/fork")) == 2, "the busy answer was not retried"


async def test_a_boundary_the_session_no_longer_holds_is_a_revision_conflict(kind: str, fork_host: Host) -> None:
    seen = Seen()
    async with driver_for(kind, fork_host, max_retries=3, transport=recording(kind, seen)) as driver:
        client = driver.client
        session = await d(client.sessions.create(**ECHO))
        first = await d(client.run(**ECHO, input="one", session=session))
        second = await d(client.run(**ECHO, input="two", session=first.session))
        cut = await d(client.sessions.truncate(second.session, keep_turns=1))
        assert cut.revision == 3
        for gone in (2, 9):  # truncated away, and not reached yet
            with pytest.raises(sdk.SessionRevisionConflictError) as caught:
                await d(client.sessions.fork(session.id, revision=gone))
            assert caught.value.current_revision == 3
        with pytest.raises(sdk.ValidationError):
            await d(client.sessions.fork(session.id, revision=-1))
        assert (await d(client.sessions.fork(session.id, revision=1))).message_count == 2
    assert len(seen.posts(f"/v1/sessions/{session.id}/fork")) == 4, "one attempt each"


async def test_a_fork_whose_answer_was_lost_is_made_once(kind: str, fork_host: Host) -> None:
    seen = Seen()
    async with driver_for(kind, fork_host) as driver:
        session = await d(driver.client.sessions.create(**ECHO))
        await d(driver.client.run(**ECHO, input="one", session=session))
        path = f"/v1/sessions/{session.id}/fork"
        before = stored(fork_host)
        async with driver_for(kind, fork_host, transport=recording(kind, seen, drop_first=path)) as dropping:
            fork = await d(dropping.client.sessions.fork(session.id))
        assert stored(fork_host) - before == 1, "the retry replayed the first attempt's fork"
        assert (await d(driver.client.sessions.read(fork.id))).session.revision == 1
    attempts = seen.posts(path)
    assert len(attempts) == 2 and len({r.headers["idempotency-key"] for r in attempts}) == 1


async def test_a_fork_needs_the_grants_and_sessions(kind: str, fork_host: Host, nosessions_host: Host) -> None:
    async with driver_for(kind, fork_host) as driver:
        session = await d(driver.client.sessions.create(**ECHO))
    async with driver_for(kind, fork_host, token=NO_GRANTS) as denied:
        with pytest.raises(sdk.PermissionDeniedError):
            await d(denied.client.sessions.fork(session.id))
    async with driver_for(kind, nosessions_host) as disabled:
        with pytest.raises(sdk.SessionsDisabledError):
            await d(disabled.client.sessions.fork("ses_sdk-nosessions.k3Jx9_Qw-Zp0aBcDeFgHiJ"))
