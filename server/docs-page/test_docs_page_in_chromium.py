"""/docs in a real headless browser: Debian's Chromium, driven by Playwright (render.mjs).

The set-up steps run first, each only when needed: setup-chromium.sh installs Debian's ``chromium``
when /usr/bin/chromium is missing, and ``npm ci`` brings playwright-core when it is not installed here.
Then a real host (``"docs": true``) starts on a free loopback port, the browser opens its /docs, and the
test checks what a person would see and do: every operation of the contract, rendered; "Try it out" aimed
at this host, and getHealth executed from the page; and not one request to any other origin (the page
would not work offline otherwise).
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import yaml

from agentic_driver.http import openapi_document

HERE = Path(__file__).resolve().parent
STARTUP_TIMEOUT_S = 20.0
BROWSER_TIMEOUT_S = 180.0
SETUP_TIMEOUT_S = 900.0
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


@pytest.fixture(scope="module")
def browser_ready() -> None:
    """Debian's Chromium and playwright-core, installed if (and only if) missing."""
    subprocess.run([str(HERE / "setup-chromium.sh")], check=True, timeout=SETUP_TIMEOUT_S)
    if not (HERE / "node_modules" / "playwright-core" / "package.json").is_file():
        npm = ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"]
        subprocess.run(npm, cwd=HERE, check=True, timeout=SETUP_TIMEOUT_S)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def docs_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A host with the docs page on, as an operator would run it; yields its base URL."""
    workdir = tmp_path_factory.mktemp("docs-host")
    config = workdir / "host.json"
    config.write_text(json.dumps({"providers": [{"id": "echo", "kind": "echo"}], "docs": True}), encoding="utf-8")
    port = _free_port()
    base_url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "agentic_driver", "serve", "--config", str(config), "--port", str(port)]
    with (workdir / "host.log").open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            try:
                if httpx.get(f"{base_url}/healthz", timeout=1.0, trust_env=False).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the host did not start: {(workdir / 'host.log').read_text()}")
            time.sleep(0.05)  # polling interval of a bounded readiness loop
        yield base_url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _operation_ids() -> list[str]:
    spec: dict[str, Any] = yaml.safe_load(openapi_document())
    return sorted(
        operation["operationId"]
        for methods in spec["paths"].values()
        for method, operation in methods.items()
        if method in HTTP_METHODS
    )


def _render(url: str, screenshot: Path) -> dict[str, Any]:
    done = subprocess.run(
        ["node", str(HERE / "render.mjs"), url, str(screenshot)],
        cwd=HERE,
        capture_output=True,
        text=True,
        timeout=BROWSER_TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, f"render.mjs failed:\n{done.stdout}\n{done.stderr}"
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    return parts.scheme, parts.hostname or "", parts.port


def test_the_docs_page_renders_every_operation_and_asks_only_its_host(
    browser_ready: None, docs_host: str, tmp_path: Path
) -> None:
    page = _render(f"{docs_host}/docs", tmp_path / "docs.png")
    assert page["status"] == 200
    assert page["title"] == "Agentic Driver API reference"
    assert sorted(page["operationIds"]) == _operation_ids(), "every operation of the contract, each once"
    assert page["problems"] == [], "no console error, page error or failed request (a CSP refusal is one)"
    assert page["servers"] == [docs_host], '"Try it out" talks to the host serving the page'
    assert page["tryItOut"] == {"status": "200", "body": '{\n  "status": "ok"\n}'}, "getHealth run from the page"
    outside = [url for url in page["requests"] if _origin(url) != _origin(docs_host)]
    assert outside == [], f"requests outside {docs_host}: {outside}"
    assert f"{docs_host}/openapi.json" in page["requests"]
    assert f"{docs_host}/docs/swagger-ui/swagger-ui-bundle.js" in page["requests"]
    assert f"{docs_host}/healthz" in page["requests"]
    assert (tmp_path / "docs.png").stat().st_size > 0
