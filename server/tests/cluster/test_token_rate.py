"""``agentic-driver cluster config --token-runs-per-minute N`` (issue 29, item 4): HAProxy counts each bearer
token's new runs and sessions over every host behind it, and refuses the N+1th of the minute itself with
``429 SUBJECT_QUOTA_EXCEEDED`` and ``Retry-After``, before any host sees it; other tokens and other requests
go on."""

from __future__ import annotations

from typing import Any

import pytest
from agentic_driver_sdk import AgenticDriver, SubjectQuotaExceededError
from e2e.conftest import ALICE, BOB

from agentic_driver.cluster import ClusterConfigError, parse_hosts, render

from .conftest import Cluster

MAXIMUM = 4


def provider_calls(cluster: Cluster) -> int:
    return sum(
        int(value)
        for host in cluster.hosts.values()
        for name, _, value in host.metrics()
        if name == "agentic_driver_provider_calls_total"
    )


def run(http: Any, text: str) -> Any:
    return http.post("/v1/runs", json={"provider": "echo", "model": "echo-1", "input": text})


def test_the_proxy_refuses_a_tokens_new_work_over_its_rate_over_all_hosts_and_nothing_else(make_cluster: Any) -> None:
    cluster: Cluster = make_cluster(["host-a", "host-b"], proxy_args=("--token-runs-per-minute", str(MAXIMUM)))
    assert "sha2(256)" in cluster.proxy.config_path.read_text(encoding="utf-8")
    with cluster.http(ALICE) as alice, cluster.http(BOB) as bob:
        # Spread over both hosts (a stateless run is balanced): the count is the proxy's, not a host's.
        created = alice.post("/v1/sessions", json={"provider": "echo", "model": "echo-1", "mode": "history"})
        assert created.status_code == 201, created.text
        answered = [run(alice, f"turn {n}") for n in range(MAXIMUM - 1)]
        assert [answer.status_code for answer in answered] == [200] * (MAXIMUM - 1)
        calls = provider_calls(cluster)

        refused = run(alice, "one too many")
        assert refused.status_code == 429, refused.text
        assert refused.headers["content-type"] == "application/problem+json"
        assert refused.headers["retry-after"] == "60"
        problem = refused.json()
        assert (problem["code"], problem["limit"], problem["maximum"]) == (
            "SUBJECT_QUOTA_EXCEEDED",
            "proxy.tokenRunsPerMinute",
            MAXIMUM,
        )
        assert ALICE not in refused.text
        fork = alice.post(f"/v1/sessions/{created.json()['session']['id']}/fork", json={})
        assert fork.status_code == 429, fork.text
        assert provider_calls(cluster) == calls, "no host saw the refused runs"

        # Reads and other tokens are not counted.
        assert alice.get("/v1/discovery").status_code == 200
        assert alice.get(f"/v1/sessions/{created.json()['session']['id']}").status_code == 200
        assert run(bob, "bob is not alice").status_code == 200

    client = AgenticDriver(base_url=cluster.url, token=ALICE, max_retries=2)
    with client, pytest.raises(SubjectQuotaExceededError) as caught:
        client.run(provider="echo", model="echo-1", input="typed")
    assert (caught.value.limit, caught.value.maximum, caught.value.retry_after) == ("proxy.tokenRunsPerMinute", 4, 60)
    assert provider_calls(cluster) == calls + 1, "only bob's run reached a host"


def test_without_the_flag_there_is_no_table_and_only_haproxy_has_it() -> None:
    hosts = parse_hosts(["a=127.0.0.1:9001"])
    assert "stick-table" not in render("haproxy", hosts)
    for fmt, rate, problem in [("nginx", 4, "only --format haproxy"), ("haproxy", 0, "at least 1")]:
        with pytest.raises(ClusterConfigError, match=problem):
            render(fmt, hosts, token_rate=rate)
