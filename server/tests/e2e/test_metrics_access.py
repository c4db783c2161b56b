"""``/metrics`` an operator can expose safely: a bearer secret of its own, a separate listen address, and
the default (open on a loopback API address, not served on any other)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from agentic_driver_testing import free_port

from agentic_driver.cli import build_host
from agentic_driver.config import parse_config
from agentic_driver.http.metrics_access import MetricsAccess
from agentic_driver.http.tls import is_loopback

from .conftest import ALICE, Host, assert_problem, launch_host, parse_metrics, simple_config

METRICS_TOKEN = "metrics-scrape-secret-0001"


def scraped(response: httpx.Response) -> list[tuple[str, dict[str, str], float]]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    samples = parse_metrics(response.text)
    assert any(name == "agentic_driver_active_runs" for name, _, _ in samples)
    return samples


@pytest.fixture(scope="module")
def token_host(launch: Callable[..., Host]) -> Host:
    config = simple_config("e2e-metrics-token", sessions=None)
    config["metrics"] = {"token": METRICS_TOKEN}
    return launch("metrics-token", config)


@pytest.fixture(scope="module")
def listen_host(launch: Callable[..., Host]) -> tuple[Host, str]:
    port = free_port()
    config = simple_config("e2e-metrics-listen", sessions=None)
    config["metrics"] = {"listen": {"host": "127.0.0.1", "port": port}, "token": METRICS_TOKEN}
    return launch("metrics-listen", config), f"http://127.0.0.1:{port}"


def test_a_metrics_token_guards_the_scrape(token_host: Host) -> None:
    with token_host.raw() as anonymous, token_host.raw(ALICE) as api_token, token_host.raw(METRICS_TOKEN) as scraper:
        refused = anonymous.get("/metrics")
        assert_problem(refused, 401, "UNAUTHENTICATED")
        assert refused.headers["www-authenticate"].startswith("Bearer")
        assert_problem(api_token.get("/metrics"), 401, "UNAUTHENTICATED")  # an API token reads no metrics
        assert_problem(
            anonymous.get("/metrics", headers={"Authorization": "Basic " + METRICS_TOKEN}), 401, "UNAUTHENTICATED"
        )
        samples = scraped(scraper.get("/metrics"))
        assert any(
            name == "agentic_driver_errors_total" and labels.get("code") == "UNAUTHENTICATED" and value >= 3
            for name, labels, value in samples
        )
        assert scraper.get("/v1/discovery").status_code == 401  # and the metrics secret is no API token
        assert api_token.get("/v1/discovery").status_code == 200


def test_a_separate_metrics_address_serves_the_scrape_and_the_api_address_does_not(
    listen_host: tuple[Host, str],
) -> None:
    host, metrics_url = listen_host
    with host.raw(ALICE) as api:
        assert_problem(api.get("/metrics"), 404, "ROUTE_NOT_FOUND")
        assert api.get("/v1/discovery").status_code == 200
    headers = {"Authorization": f"Bearer {METRICS_TOKEN}"}
    with httpx.Client(base_url=metrics_url, trust_env=False, timeout=10) as metrics:
        scraped(metrics.get("/metrics", headers=headers))
        assert_problem(metrics.get("/metrics"), 401, "UNAUTHENTICATED")
        assert metrics.get("/healthz").json() == {"status": "ok"}
        assert_problem(metrics.get("/v1/discovery", headers=headers), 404, "ROUTE_NOT_FOUND")  # no API here
        assert_problem(metrics.post("/metrics", headers=headers), 405, "METHOD_NOT_ALLOWED")


@pytest.mark.parametrize(
    ("address", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.1.2.3", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.10", False),
        ("host.example", False),
    ],
)
def test_which_api_addresses_count_as_loopback(address: str, loopback: bool) -> None:
    assert is_loopback(address) is loopback


def _config(metrics: dict[str, Any] | None) -> Any:
    data: dict[str, Any] = {"providers": [{"id": "echo", "kind": "echo"}]}
    if metrics is not None:
        data["metrics"] = metrics
    return parse_config(data)


async def _get_metrics(metrics: dict[str, Any] | None, api_host: str, token: str | None = None) -> httpx.Response:
    config = _config(metrics)
    _, app = build_host(config, metrics_access=MetricsAccess.of(config.metrics, api_host))
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://host") as client:
        return await client.get("/metrics", headers=headers)


async def test_by_default_metrics_are_open_on_a_loopback_api_address_only() -> None:
    assert (await _get_metrics(None, "127.0.0.1")).status_code == 200
    assert_problem(await _get_metrics(None, "0.0.0.0"), 404, "ROUTE_NOT_FOUND")
    # with a token, any API address serves them (behind the token)
    assert_problem(await _get_metrics({"token": METRICS_TOKEN}, "0.0.0.0"), 401, "UNAUTHENTICATED")
    assert (await _get_metrics({"token": METRICS_TOKEN}, "0.0.0.0", METRICS_TOKEN)).status_code == 200


def test_the_metrics_settings_are_checked() -> None:
    with pytest.raises(Exception, match="at most one of token, tokenEnv, tokenSha256"):
        _config({"token": METRICS_TOKEN, "tokenEnv": "X"})
    with pytest.raises(Exception, match="port"):
        _config({"listen": {"host": "127.0.0.1", "port": 70000}})
    assert "metrics-scrape" not in repr(_config({"token": METRICS_TOKEN}).metrics)


def test_the_metrics_address_closes_with_the_host(tmp_path: Any) -> None:
    port = free_port()
    config = simple_config("e2e-metrics-stop", sessions=None)
    config["metrics"] = {"listen": {"host": "127.0.0.1", "port": port}}
    host = launch_host("metrics-stop", config, tmp_path)
    try:
        with httpx.Client(trust_env=False, timeout=10) as metrics:
            scraped(metrics.get(f"http://127.0.0.1:{port}/metrics"))  # open: no token set, its own address
    finally:
        host.process.terminate()
        assert host.process.wait(timeout=15) == 0
    with pytest.raises(httpx.ConnectError), httpx.Client(trust_env=False, timeout=5) as metrics:
        metrics.get(f"http://127.0.0.1:{port}/metrics")
