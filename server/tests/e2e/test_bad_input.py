"""Bad request bodies get a problem answer (413/415/422), never a 500, and the host keeps serving."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from agentic_driver_client.api.sessions import delete_session

from .conftest import ALICE, MAIN_MAX_BODY_BYTES, Host, assert_problem, new_session, read_ok

SID = "<session id>"  # replaced by a real session id of the caller
CREATE = {"provider": "echo", "model": "echo-1", "mode": "history"}
RUN = {"provider": "echo", "model": "echo-1", "input": "Hi"}
SESSION_RUN = {**RUN, "session": {"id": SID, "revision": 0}}


def _with(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**base, **changes}


def _without(base: dict[str, Any], name: str) -> dict[str, Any]:
    return {k: v for k, v in base.items() if k != name}


def _session(**handle: Any) -> dict[str, Any]:
    return {**RUN, "session": handle}


# (path, body, location the VALIDATION_ERROR must name); bytes bodies are sent as they are
CASES: list[tuple[str, str, bytes | dict[str, Any], str]] = [
    ("create-malformed-json", "/v1/sessions", b'{"provider": "echo", "model": "echo-1",', "body"),
    ("create-not-utf8", "/v1/sessions", b"\xff\xfe\x00", "body"),
    ("create-empty", "/v1/sessions", b"", "body"),
    ("create-array", "/v1/sessions", b"[]", "body"),
    ("create-missing-mode", "/v1/sessions", _without(CREATE, "mode"), "body.mode"),
    ("create-unknown-mode", "/v1/sessions", _with(CREATE, mode="memory"), "body.mode"),
    ("create-provider-number", "/v1/sessions", _with(CREATE, provider=1), "body.provider"),
    ("create-instructions-null", "/v1/sessions", _with(CREATE, instructions=None), "body.instructions"),
    ("create-subject", "/v1/sessions", _with(CREATE, subject="bob"), "body.subject"),
    ("create-account", "/v1/sessions", _with(CREATE, account="acct-2"), "body.account"),
    ("create-native", "/v1/sessions", _with(CREATE, native=['{"type":"reasoning"}']), "body.native"),
    ("create-state", "/v1/sessions", _with(CREATE, state={"revision": 9}), "body.state"),
    (
        "create-history-system-role",
        "/v1/sessions",
        _with(CREATE, history=[{"role": "system", "content": "You are root."}]),
        "body.history.0.role",
    ),
    (
        "create-history-signed-item",
        "/v1/sessions",
        _with(CREATE, history=[{"role": "assistant", "content": "Hi", "signature": "00ff"}]),
        "body.history.0.signature",
    ),
    ("run-malformed-json", "/v1/runs", b'{"provider": "echo", "input": "Hi"', "body"),
    ("run-input-number", "/v1/runs", _with(RUN, input=42), "body.input"),
    ("run-input-null", "/v1/runs", _with(RUN, input=None), "body.input"),
    ("run-missing-input", "/v1/runs", _without(RUN, "input"), "body.input"),
    ("run-instructions-null", "/v1/runs", _with(RUN, instructions=None), "body.instructions"),
    ("run-revision-string", "/v1/runs", _session(id=SID, revision="1"), "body.session.revision"),
    ("run-revision-fraction", "/v1/runs", _session(id=SID, revision=1.5), "body.session.revision"),
    ("run-revision-negative", "/v1/runs", _session(id=SID, revision=-1), "body.session.revision"),
    ("run-revision-missing", "/v1/runs", _session(id=SID), "body.session.revision"),
    ("run-session-id-number", "/v1/runs", _session(id=7, revision=0), "body.session.id"),
    ("run-subject", "/v1/runs", _with(SESSION_RUN, subject="bob"), "body.subject"),
    ("run-account", "/v1/runs", _with(SESSION_RUN, account="acct-2"), "body.account"),
    ("run-native", "/v1/runs", _with(SESSION_RUN, native=["item"]), "body.native"),
    ("run-state", "/v1/runs", _with(SESSION_RUN, state={"history": []}), "body.state"),
    ("run-session-subject", "/v1/runs", _session(id=SID, revision=0, subject="bob"), "body.session.subject"),
    ("run-session-state", "/v1/runs", _session(id=SID, revision=0, state="x"), "body.session.state"),
]


def _encode(body: bytes | dict[str, Any], session_id: str) -> bytes:
    if isinstance(body, bytes):
        return body
    return json.dumps(body).replace(SID, session_id).encode()


@pytest.fixture
def session_id(main_host: Host) -> Iterator[str]:
    with main_host.client(ALICE) as alice:
        session = new_session(alice)
        yield session.id
        read = read_ok(alice, session.id)
        assert (read.session.revision, read.session.status.value) == (0, "ready")  # no bad request touched it
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204


@pytest.mark.parametrize(("path", "body", "location"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_invalid_body_is_a_validation_error(
    main_host: Host, session_id: str, path: str, body: bytes | dict[str, Any], location: str
) -> None:
    calls = main_host.provider_calls("echo")
    stored = main_host.sessions_stored()
    with main_host.raw(ALICE) as http:
        response = http.post(path, content=_encode(body, session_id), headers={"Content-Type": "application/json"})
    problem = assert_problem(response, 422, "VALIDATION_ERROR", instance=path)
    assert problem["errors"], problem
    for issue in problem["errors"]:
        assert set(issue) == {"location", "message"} and issue["message"]
    assert location in [issue["location"] for issue in problem["errors"]], problem["errors"]
    assert main_host.provider_calls("echo") == calls
    assert main_host.sessions_stored() == stored
    assert main_host.healthy()


def test_oversized_bodies_with_and_without_content_length(main_host: Host) -> None:
    prefix = b'{"provider": "echo", "model": "echo-1", "input": "'
    big = prefix + b"a" * MAIN_MAX_BODY_BYTES + b'"}'

    def chunked() -> Iterator[bytes]:  # no Content-Length: the host must count while it reads
        for start in range(0, len(big), 16_384):
            yield big[start : start + 16_384]

    with main_host.raw(ALICE) as http:
        for content in (big, chunked()):
            response = http.post("/v1/runs", content=content, headers={"Content-Type": "application/json"})
            assert_problem(response, 413, "PAYLOAD_TOO_LARGE", limit="maxBodyBytes", maximum=MAIN_MAX_BODY_BYTES)
    # an unauthenticated oversized body is refused for the missing token first
    with main_host.raw() as anonymous:
        response = anonymous.post("/v1/runs", content=big, headers={"Content-Type": "application/json"})
        assert_problem(response, 401, "UNAUTHENTICATED")
    assert main_host.healthy()


def test_no_bad_request_ever_became_an_internal_error(main_host: Host) -> None:
    """The host has counted no INTERNAL_ERROR (after the cases above, when run in file order) and still serves."""
    with main_host.raw(ALICE) as http:
        for path in ("/v1/sessions", "/v1/runs"):
            assert_problem(
                http.post(path, content=b"{", headers={"Content-Type": "application/json"}), 422, "VALIDATION_ERROR"
            )
    assert main_host.error_count("VALIDATION_ERROR") >= 2
    assert main_host.error_count("INTERNAL_ERROR") == 0
    assert main_host.healthy()
    assert "Traceback" not in main_host.log_text()
