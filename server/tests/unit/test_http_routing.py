"""Requests outside the contract still get problem responses, with an honest Allow header."""

from __future__ import annotations

import httpx

from agentic_driver import Driver, TokenPolicy, embedded_default
from agentic_driver.http import create_app


def _client() -> httpx.AsyncClient:
    config, _ = embedded_default(token="routing-test-token-0123")
    app = create_app(Driver.from_config(config), TokenPolicy(config.tokens))
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://host")


async def test_a_method_outside_the_contract_names_every_method_of_the_path() -> None:
    async with _client() as client:
        response = await client.request("OPTIONS", "/v1/sessions/ses_x")
    assert response.status_code == 405
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "METHOD_NOT_ALLOWED"
    assert {m.strip() for m in response.headers["allow"].split(",")} >= {"GET", "DELETE"}


async def test_an_unknown_path_is_a_route_not_found_problem() -> None:
    async with _client() as client:
        response = await client.get("/v2/nothing")
    assert response.status_code == 404
    assert response.json()["code"] == "ROUTE_NOT_FOUND"


async def test_no_docs_page_unless_asked_and_never_fastapis_cdn_backed_ones() -> None:
    async with _client() as client:
        for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
            assert (await client.get(path)).status_code == 404


async def test_an_embedding_app_can_still_add_fastapi_routes() -> None:
    config, _ = embedded_default(token="routing-test-token-0123")
    app = create_app(Driver.from_config(config), TokenPolicy(config.tokens))

    @app.get("/embedder/{item}")
    async def embedder_route(item: int) -> dict[str, int]:
        return {"item": item}

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://host") as client:
        assert (await client.get("/embedder/7")).json() == {"item": 7}
        assert (await client.get("/healthz")).json() == {"status": "ok"}
