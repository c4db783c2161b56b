"""HEAD on every GET route answers as GET would, without content (RFC 9110 section 9.3.2).

In-process through httpx.ASGITransport, which (unlike uvicorn) passes on any content the app sends:
so these prove the app itself sends none. tests/e2e/test_head.py checks the same on the wire.
"""

from __future__ import annotations

import httpx
import pytest

from agentic_driver import Driver, TokenPolicy, embedded_default
from agentic_driver.http import create_app

TOKEN = "head-test-token-0123456"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
# Headers that may differ between two answers to the same request.
VOLATILE = {"date", "content-length", "x-request-id"}  # each answer has its own request id


def _client() -> httpx.AsyncClient:
    config, _ = embedded_default(token=TOKEN)
    app = create_app(Driver.from_config(config), TokenPolicy(config.tokens))
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://host")


async def _new_session(client: httpx.AsyncClient) -> str:
    created = await client.post(
        "/v1/sessions", headers=AUTH, json={"provider": "echo", "model": "echo-1", "mode": "history"}
    )
    assert created.status_code == 201, created.text
    return str(created.json()["session"]["id"])


async def _assert_head_like_get(client: httpx.AsyncClient, path: str, headers: dict[str, str]) -> httpx.Response:
    got = await client.get(path, headers=headers)
    head = await client.head(path, headers=headers)
    assert head.status_code == got.status_code
    assert head.content == b"", f"HEAD {path} sent content"
    assert {k: v for k, v in head.headers.items() if k not in VOLATILE} == {
        k: v for k, v in got.headers.items() if k not in VOLATILE
    }
    assert head.headers["content-length"] == str(len(got.content))
    return head


@pytest.mark.parametrize(
    ("path", "authenticated"),
    [("/healthz", False), ("/openapi.yaml", False), ("/openapi.json", False), ("/v1/discovery", True)],
)
async def test_head_on_a_get_route_is_its_get_answer_without_content(path: str, authenticated: bool) -> None:
    async with _client() as client:
        head = await _assert_head_like_get(client, path, AUTH if authenticated else {})
    assert head.status_code == 200


async def test_head_on_metrics_has_the_get_headers_and_a_content_length() -> None:
    # The exposition changes between two scrapes (the first one is counted), so only its headers compare.
    async with _client() as client:
        got = await client.get("/metrics")
        head = await client.head("/metrics")
    assert head.status_code == got.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
    assert int(head.headers["content-length"]) > 0


async def test_head_on_a_session_read_answers_with_the_session_and_no_content() -> None:
    async with _client() as client:
        session_id = await _new_session(client)
        head = await _assert_head_like_get(client, f"/v1/sessions/{session_id}", AUTH)
    assert head.status_code == 200
    assert head.headers["content-type"] == "application/json"


@pytest.mark.parametrize(
    ("path", "headers", "status"),
    [
        ("/v1/discovery", {}, 401),
        ("/v1/sessions/ses_missing", {}, 401),
        ("/v1/sessions/ses_missing", AUTH, 404),
        ("/v1/sessions/ses_missing", {"Authorization": "Bearer not-a-configured-token"}, 401),
    ],
)
async def test_head_answers_the_same_problems_as_get(path: str, headers: dict[str, str], status: int) -> None:
    async with _client() as client:
        head = await _assert_head_like_get(client, path, headers)
    assert head.status_code == status
    assert head.headers["content-type"] == "application/problem+json"


async def test_head_is_not_served_where_there_is_no_get() -> None:
    async with _client() as client:
        response = await client.head("/v1/runs")
    assert response.status_code == 405
    assert response.content == b""
    assert response.headers["allow"] == "POST"


async def test_the_allow_header_of_a_get_path_names_head() -> None:
    async with _client() as client:
        response = await client.request("PATCH", "/v1/sessions/ses_x")
    assert response.status_code == 405
    assert response.headers["allow"] == "DELETE, GET, HEAD"
