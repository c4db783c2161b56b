"""The optional /docs page: served only when asked, from the package's own files, same-origin only.

server/docs-page/test_docs_page_in_chromium.py opens it in a real Chromium.
"""

from __future__ import annotations

import httpx
import pytest

from agentic_driver import Driver, HostConfig, TokenPolicy, embedded_default, parse_config
from agentic_driver.cli import build_host
from agentic_driver.http import create_app
from agentic_driver.http.docs_page import ASSETS, CONTENT_SECURITY_POLICY


def _client(docs: bool) -> httpx.AsyncClient:
    config, _ = embedded_default(token="docs-test-token-0123456")
    app = create_app(Driver.from_config(config), TokenPolicy(config.tokens), docs=docs)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://host")


async def test_the_page_loads_only_its_own_assets_and_this_hosts_contract() -> None:
    async with _client(docs=True) as client:
        page = await client.get("/docs")
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert page.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "default-src 'none'" in CONTENT_SECURITY_POLICY and "https:" not in CONTENT_SECURITY_POLICY
    assert 'src="docs/swagger-ui/swagger-ui-bundle.js"' in page.text
    assert 'href="docs/swagger-ui/swagger-ui.css"' in page.text
    assert "//" not in page.text.replace("<!doctype html>", ""), "no absolute or protocol-relative URL"


@pytest.mark.parametrize("name", sorted(ASSETS))
async def test_every_asset_is_served_with_its_media_type(name: str) -> None:
    async with _client(docs=True) as client:
        response = await client.get(f"/docs/{name}")
    assert response.status_code == 200
    assert response.headers["content-type"] == ASSETS[name]
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.content


async def test_the_vendored_renderer_is_swagger_ui_with_its_licence() -> None:
    async with _client(docs=True) as client:
        version = (await client.get("/docs/swagger-ui/VERSION")).text
        licence = (await client.get("/docs/swagger-ui/LICENSE")).text
        script = (await client.get("/docs/init.js")).text
    assert version.startswith("swagger-ui-dist 5.")
    assert "Apache License" in licence
    assert 'fetch("openapi.json"' in script and "validatorUrl: null" in script


@pytest.mark.parametrize("path", ["/docs", "/docs/swagger-ui/swagger-ui-bundle.js"])
async def test_head_on_the_page_and_its_assets(path: str) -> None:
    async with _client(docs=True) as client:
        got, head = await client.get(path), await client.head(path)
    assert head.status_code == got.status_code == 200
    assert head.content == b""
    assert head.headers["content-length"] == str(len(got.content))
    assert head.headers["content-security-policy"] == CONTENT_SECURITY_POLICY


@pytest.mark.parametrize(
    "path", ["/docs/nothing.js", "/docs/%2E%2E/openapi.yaml", "/docs/swagger-ui/index.html", "/docs/"]
)
async def test_nothing_else_under_docs(path: str) -> None:
    async with _client(docs=True) as client:
        response = await client.get(path)
    assert response.status_code == 404
    assert response.json()["code"] == "ROUTE_NOT_FOUND"


async def test_off_unless_asked() -> None:
    async with _client(docs=False) as client:
        for path in ("/docs", "/docs/init.js", "/docs/swagger-ui/swagger-ui-bundle.js"):
            assert (await client.get(path)).status_code == 404


def test_a_host_json_turns_it_on_and_the_default_is_off() -> None:
    base = {"providers": [{"id": "echo", "kind": "echo"}]}
    assert HostConfig.model_validate(base).docs is False
    assert parse_config({**base, "docs": True}).docs is True
    assert embedded_default(token="docs-test-token-0123456")[0].docs is True


async def test_build_host_follows_the_config() -> None:
    for docs, status in ((True, 200), (False, 404)):
        _, app = build_host(parse_config({"providers": [{"id": "echo", "kind": "echo"}], "docs": docs}))
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://host") as client:
            assert (await client.get("/docs")).status_code == status
